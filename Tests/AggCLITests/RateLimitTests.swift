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
    /// each (ticker and stats), all at once: the command's requests go through the venue's token
    /// bucket, so the last of the 24 starts at least (24 − 10) / 10 = 1.4 s after the run began.
    /// A bucket can only delay a start, so the load on the machine cannot make this fail; without the bucket the 24 would start
    /// within milliseconds. The bucket's exact rate in every window is `RetryTests`' business,
    /// on a virtual clock: here the wall clock's scheduling lag would blur it (a token granted
    /// at 0 s may reach the server with the one granted at 0.3 s).
    @Test("a burst waits for the venue's bucket: 24 requests at 10 a second end 1.4 s after the run began")
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
        // The bucket is made after this instant, full (10 tokens); the 24th token comes 1.4 s
        // after it was made, and a request can only start after its token.
        let before = ContinuousClock.now
        let run = await runCLI(["quote"] + coins + ["-e", "coinbase", "-f", "json"], http: client)
        #expect(run.status == 0)
        let starts = timed.all
        #expect(starts.count == 24)
        if let last = starts.last {
            // 1.4 s, less the clock's rounding.
            #expect(last - before >= .milliseconds(1390), "\(last - before)")
        }
    }

    /// Issue 20, rule 4: 40 coins on Coinbase (80 requests at 10 a second) with `--timeout 2`
    /// took 6.9 s, the rate limiter waiting past the timeout. Now a request whose token would
    /// come after its deadline fails at once as a timeout, and the run ends near 2 s (2.0 s on an
    /// idle machine): the bucket can only delay a start, so the requests that fit the budget
    /// are sent and the others fail without waiting.
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
        let run = await runCLI(["quote"] + coins + ["-e", "coinbase", "-f", "json", "--timeout", "2"], http: client)
        #expect(run.status == 1)
        // The requests whose token would come after their deadline were never sent: before,
        // all 80 were, the bucket spreading them over at least (80 - 10) / 10 = 7 s (6.9 s).
        // Those that fit were: at least the 10 of the burst and one a tenth of a second for
        // 2 s. Counts, not the run's length: on a loaded machine the run's own work took 7.1 s
        // beside the other timing suites, as long as the old waits, while these counts held.
        let sent = timed.all.count
        #expect(sent < 80)
        #expect(sent >= 29, "\(sent) requests sent")
        #expect(run.errorLines.contains { $0.contains("no answer within 2 s from") })
    }
}
