import AggCore
import AggJSON
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggCLI
@testable import AggServices

/// The venues `agg arb`'s tests answer from their recordings.
private let arbBases = [
    "bithumb": "https://api.bithumb.com", "upbit": "https://api.upbit.com", "binance": "https://api.binance.com",
    "korbit": "https://api.korbit.co.kr",
]

/// A network answering every venue from its fixtures and the test FX source with USD->KRW 1442.35.
private func arbNetwork() throws -> AsyncScriptedHTTPClient {
    let responder = try FixtureResponder(venues: arbBases)
    return AsyncScriptedHTTPClient { request in
        if request.url.hasPrefix(TestFXAdapter.descriptor.defaultBaseURL) {
            return HTTPResponse(status: 200, headers: [], body: Array(TestFXAdapter.body.utf8), url: request.url)
        }
        return try responder.respond(to: request)
    }
}

private func arbRegistry() -> AdapterRegistry {
    var registry = fixedRegistry(["bithumb", "upbit", "binance", "korbit", "coinbase"])
    registry.register(TestFXAdapter.self)
    return registry
}

private func arb(_ arguments: [String], http: (any HTTPClient)? = nil) async throws -> CLIRun {
    await runCLI(["arb"] + arguments, http: try http ?? arbNetwork(), registry: arbRegistry())
}

@Suite("agg arb")
struct ArbCommandTests {
    @Test(
        "bad input is one line on stderr and exit 64, before any request",
        arguments: [
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "0"], "the notional must be above 0"),
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "0.0M"], "the notional must be above 0"),
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "-5"], "the notional must be above 0"),
            (
                ["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "1001B"],
                "the notional must be at most 1e12"
            ),
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "10X"], "unknown unit 'X'"),
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "1,000,000"], "without separators"),
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "1_000"], "without separators"),
            (["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "1e12"], "expected an amount"),
            (["BTC", "--from", "upbit", "--to", "upbit", "--notional", "10M"], "--from and --to are both upbit"),
            (["BTC", "--from", "testfx", "--to", "upbit", "--notional", "10M"], "testfx has no order book to walk"),
            (["BTC", "--from", "upbit", "--notional", "10M"], "arb needs --to VENUE"),
            (["BTC", "--to", "upbit", "--notional", "10M"], "arb needs --from VENUE"),
            (["BTC", "--from", "upbit", "--to", "bithumb"], "arb needs --notional AMOUNT"),
            (["KRW", "--from", "upbit", "--to", "bithumb", "--notional", "10M"], "KRW is upbit's own quote currency"),
        ])
    func badInput(arguments: [String], message: String) async throws {
        let http = try arbNetwork()
        let run = try await arb(arguments, http: http)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
        #expect(http.requests.isEmpty)
    }

    @Test("both books, the transfer status and the FX rate are asked at the same time")
    func concurrent() async throws {
        // Every answer waits until all four requests are out (or 20 s pass): asked one after
        // another, at most one would ever be in flight.
        let responder = try FixtureResponder(venues: arbBases)
        let arrived = Mutex(0)
        let http = AsyncScriptedHTTPClient { request in
            arrived.withLock { $0 += 1 }
            let start = ContinuousClock.now
            while arrived.withLock({ $0 }) < 4, ContinuousClock.now - start < .seconds(20) {
                try await Task.sleep(for: .milliseconds(5))
            }
            if request.url.hasPrefix(TestFXAdapter.descriptor.defaultBaseURL) {
                return HTTPResponse(status: 200, headers: [], body: Array(TestFXAdapter.body.utf8), url: request.url)
            }
            return try responder.respond(to: request)
        }
        let run = try await arb(
            ["BTC", "--from", "binance", "--to", "upbit", "--notional", "10M", "-f", "json"], http: http)
        #expect(run.status == 1)
        #expect(http.requests.count == 4)
        #expect(http.peakConcurrentRequests == 4)
    }

    @Test("the notional grammar: plain digits with K, M or B, at most 1e12")
    func notionalGrammar() throws {
        #expect(try NotionalText.parse("10M") == 10_000_000)
        #expect(try NotionalText.parse("2.5K") == 2_500)
        #expect(try NotionalText.parse("2.5k") == 2_500)
        #expect(try NotionalText.parse("1000B") == NotionalText.maximum)
        #expect(try NotionalText.parse("1000000") == 1_000_000)
        #expect(try NotionalText.parse(".5M") == 500_000)
    }
}
