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

    /// Issue 20, rule 4: 40 coins on Coinbase (80 requests at 10 a second) with `--timeout 2`
    /// took 6.9 s, the rate limiter waiting past the timeout. Now a request whose token would
    /// come after its deadline fails at once as a timeout, and the run ends near 2 s: the bucket
    /// can only delay a start, so the 11 + 2 × 10 requests that fit the budget answer and the
    /// others fail without waiting.
    @Test("the rate limiter never waits past --timeout: 40 coins on Coinbase with --timeout 2")
    func limiterInsideTimeout() async throws {
        let ticker = try Fixtures.bytes("coinbase/products_BTC-USD_ticker.json")
        let stats = try Fixtures.bytes("coinbase/products_BTC-USD_stats.json")
        let timed = TimedRequests()
        let client = ScriptedHTTPClient { request in
            timed.record()
            let body = request.url.hasSuffix("/stats") ? stats : ticker
            return HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        let coins = (0..<40).map { "C\($0)" }
        let clock = ContinuousClock()
        let start = clock.now
        let run = await runCLI(["quote"] + coins + ["-e", "coinbase", "-f", "json", "--timeout", "2"], http: client)
        let elapsed = clock.now - start
        #expect(run.status == 1)
        // The requests whose token would come after their deadline were never sent: before,
        // all 80 were, the bucket spreading them over at least (80 - 10) / 10 = 7 s.
        #expect(timed.all.count < 80)
        #expect(run.errorLines.contains { $0.contains("no answer within 2 s from") })
        // 6.9 s before; 2 s of budget and room for a loaded machine.
        #expect(elapsed < .seconds(6))
    }
}
