import AggJSON
import Synchronization

/// The latest all-tickers answer of one adapter and when it arrived, so that asking for several
/// quote currencies in a row costs one request. Requests run concurrently, so it is guarded.
final class AllTickersMemo: Sendable {
    /// How long an answer is read again instead of asking anew: long enough for one command's
    /// consecutive uses on a loaded machine, short against the rolling 24-hour figures it holds.
    /// (agg makes new adapters for every command and every `watch` refresh.)
    static let reuseSeconds: Double = 5

    private let latest = Mutex<(json: JSONCursor, at: ContinuousClock.Instant)?>(nil)

    /// The answer kept, if it arrived within `reuseSeconds`.
    func recent() -> JSONCursor? {
        latest.withLock { kept in
            guard let kept, ContinuousClock.now - kept.at < .seconds(Self.reuseSeconds) else { return nil }
            return kept.json
        }
    }

    /// Keeps `json`, which just arrived.
    func keep(_ json: JSONCursor) {
        latest.withLock { $0 = (json, ContinuousClock.now) }
    }
}
