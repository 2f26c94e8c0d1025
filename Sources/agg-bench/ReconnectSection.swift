import AggCore
import AggDataVenues
import AggTestKit
import AggTransport
import AggVenues
import Foundation

/// Section 10: a stream that drops, and the time to its first fresh value. For every streaming
/// venue, its real codec and the real WebSocket client (`VenueStream` on `WebSocketClient`)
/// follow the loopback WebSocket server playing the ticker frames of
/// `Fixtures/<id>/stream/ticker.jsonl`: the first connection plays them and drops, the second
/// plays them again. Measured from the drop (the runner's `down`) to the first quotes read on the
/// new connection, beside the jittered backoff the runner waited, and the REST snapshot that
/// fills the gap (the venue's adapter asking the loopback fixture server for the same markets).
/// Issue 22's target: first fresh value ≤ backoff + 1 RTT + the snapshot time.
enum ReconnectSection {
    /// One drop and reconnect, in seconds.
    struct Reconnect {
        /// From the drop to the first quotes on the new connection.
        var fresh: Double
        /// The backoff the runner waited before its new attempt.
        var backoff: Double
        /// From the new attempt to its first quotes: connect, handshake, subscribe, first frame.
        var connect: Double
    }

    /// Why a run gave no figure.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// How long one run may take: the backoff (about 1 s) and a loopback reconnect, with room for
    /// a loaded machine.
    static let runLimit: Duration = .seconds(30)

    static func run(_ bench: Bench) async throws {
        let registry = DataVenueLoader.load(into: .standard, shipped: [DataVenueDirectory.checkout], user: nil).registry
        let venues = registry.descriptors(supporting: .stream).map(\.id).sorted()
        print(
            "\(BenchSection.reconnect.rawValue). Reconnect: each streaming venue's stream dropped once a run, loopback; "
                + "median of \(bench.runs) runs (target: first fresh value ≤ backoff + 1 RTT + snapshot)")
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        let http = CurlHTTPClient()
        for venue in venues {
            let adapter = try registry.makeAdapter(
                id: venue, environment: AdapterEnvironment(baseURL: fixtures.baseURL(for: venue), http: http))
            guard let codec = adapter.tickerStream else { continue }
            let fixture = try WebSocketScript.fixture(venue: venue, name: "ticker")
            let markets = Self.markets(fixture, codec: codec)
            guard !markets.isEmpty else {
                line("   \(venue)", "no ticker frames in Fixtures/\(venue)/stream/ticker.jsonl")
                continue
            }
            let sends = fixture.steps.filter { if case .send = $0 { true } else { false } }
            let streaming = WebSocketScript(steps: [.expect(.text, data: nil, match: .exact)] + sends)
            let dropping = WebSocketScript(steps: streaming.steps + [.drop])
            var reconnects: [Reconnect] = []
            var snapshots: [Double] = []
            var problem: String?
            for run in 0..<bench.runs {
                do {
                    let server = try WebSocketLoopbackServer(scripts: [dropping, streaming])
                    defer { server.stop() }
                    let stream = try VenueStream(
                        descriptor: adapter.descriptor, codec: codec, url: server.url(), markets: markets,
                        connector: WebSocketClient(), jitterSeed: UInt64(run + 1))
                    reconnects.append(try await Self.reconnect(stream))
                } catch {
                    problem = "\(error)"
                    break
                }
            }
            if let problem {
                line("   \(venue)", "no figure: " + problem)
                continue
            }
            // The gap fill: one REST snapshot of the same markets, as the stream's users ask it.
            for _ in 0..<bench.runs {
                let started = ContinuousClock.now
                let answers = await adapter.quotes(for: markets)
                guard answers.values.allSatisfy({ (try? $0.get()) != nil }) else { break }
                snapshots.append((ContinuousClock.now - started).seconds)
            }
            let fresh = median(reconnects.map(\.fresh))
            let backoff = median(reconnects.map(\.backoff))
            let beyond = median(reconnects.map { $0.fresh - $0.backoff })
            let connect = median(reconnects.map(\.connect))
            let figures = String(
                format: "drop → fresh %7.1f ms = backoff %7.1f ms + %5.2f ms (reconnect %5.2f ms)", fresh * 1000,
                backoff * 1000, beyond * 1000, connect * 1000)
            guard snapshots.count == bench.runs else {
                line("   \(venue) (\(markets.count) markets)", figures + "  (no REST snapshot of these markets)")
                continue
            }
            let snapshot = median(snapshots)
            line(
                "   \(venue) (\(markets.count) markets)",
                figures
                    + String(
                        format: "  (snapshot %5.2f ms)  %@", snapshot * 1000, beyond <= snapshot ? "ok" : "over target")
            )
        }
    }

    /// The markets whose quotes `script`'s frames carry, in order of appearance.
    static func markets(_ script: WebSocketScript, codec: any TickerStreamCodec) -> [Market] {
        var markets: [Market] = []
        let receivedAt = Timestamp(millisecondsSince1970: 1_796_290_202_000)
        for message in script.sentMessages {
            guard case .quotes(let quotes, _) = codec.read(message, receivedAt: receivedAt) else { continue }
            for quote in quotes where !markets.contains(quote.market) { markets.append(quote.market) }
        }
        return markets
    }

    /// Follows `stream` through its first connection's drop to the first quotes of the next.
    static func reconnect(_ stream: VenueStream) async throws -> Reconnect {
        let limit = ContinuousClock.now + runLimit
        var dropped: ContinuousClock.Instant?
        var backoff: Duration?
        var attempted: ContinuousClock.Instant?
        for await event in stream.events() {
            guard ContinuousClock.now < limit else { break }
            switch event {
            case .state(_, .down):
                if dropped == nil { dropped = ContinuousClock.now }
            case .state(_, .connecting(let attempt, let waited)) where attempt > 1 || dropped != nil:
                if backoff == nil { (backoff, attempted) = (waited, ContinuousClock.now) }
            case .quotes(_, let quotes, _) where !quotes.isEmpty && backoff != nil:
                if let dropped, let backoff, let attempted {
                    let now = ContinuousClock.now
                    return Reconnect(
                        fresh: (now - dropped).seconds, backoff: backoff.seconds, connect: (now - attempted).seconds)
                }
            default: break
            }
        }
        throw Failure(description: "the stream did not come back within \(runLimit)")
    }
}
