import AggCore
import AggTestKit
import Foundation
import Synchronization
import Testing

/// Requests stamped with the time each one started.
final class TimedRequests: Sendable {
    private let starts = Mutex<[ContinuousClock.Instant]>([])

    func record() { starts.withLock { $0.append(.now) } }

    var all: [ContinuousClock.Instant] { starts.withLock { $0.sorted() } }
}

@Suite("Per-venue rate limits in the CLI")
struct RateLimitTests {
    /// Coinbase allows 10 requests a second and `agg quote` asks for 12 coins there, two requests
    /// each (ticker and stats), all at once. Whatever the load on the machine, a token bucket can
    /// only delay a start, never advance it: in every window of w seconds there are at most
    /// 10 + 10 × w starts, and the 24 take at least (24 − 10) / 10 = 1.4 s.
    @Test("a burst never exceeds the venue's published rate")
    func coinbaseBurst() async throws {
        let timed = TimedRequests()
        let ticker = try Fixtures.bytes("coinbase/products_BTC-USD_ticker.json")
        let stats = try Fixtures.bytes("coinbase/products_BTC-USD_stats.json")
        // Every coin gets BTC's recorded answers: each quote then needs both of its requests.
        let client = ScriptedHTTPClient { request in
            timed.record()
            let body = request.url.hasSuffix("/stats") ? stats : ticker
            return HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        let coins = ["BTC", "ETH", "SOL", "XRP", "ADA", "DOGE", "DOT", "LINK", "LTC", "BCH", "AVAX", "UNI"]
        let run = await runCLI(["quote"] + coins + ["-e", "coinbase", "-f", "json"], http: client)
        #expect(run.status == 0)
        let starts = timed.all
        #expect(starts.count == 24)
        let rate = 10.0
        for (index, start) in starts.enumerated() {
            for later in starts[index...] {
                let window = (later - start)
                let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
                let inWindow = starts[index...].filter { $0 <= later }.count
                #expect(Double(inWindow) <= rate + rate * seconds + 1, "\(inWindow) starts in \(seconds) s")
            }
        }
        if let first = starts.first, let last = starts.last {
            #expect(last - first >= .milliseconds(1300))
        }
    }
}
