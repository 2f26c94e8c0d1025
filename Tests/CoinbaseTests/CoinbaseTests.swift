import AggCore
import AggJSON
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import Coinbase

// What Coinbase answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/coinbase/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(CoinbaseAdapter.self)
private let base = bed.baseURL

private let btc = Market(base: "BTC", quote: "USD")

@Suite("Coinbase router")
struct CoinbaseRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker(btc), "/products/BTC-USD/ticker"),
            (.stats(btc), "/products/BTC-USD/stats"),
            (.ticker(Market(base: "ETH", quote: "BTC")), "/products/ETH-BTC/ticker"),
            (.products, "/products"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/coinbase") == "http://127.0.0.1:8080/coinbase" + path)
    }

    @Test(
        "product ids map to unified markets and back",
        arguments: [
            ("BTC-USD", Market(base: "BTC", quote: "USD")), ("ETH-BTC", Market(base: "ETH", quote: "BTC")),
            ("BTC-USDT", Market(base: "BTC", quote: "USDT")), ("USDT-USDC", Market(base: "USDT", quote: "USDC")),
        ])
    func roundTrip(id: String, market: Market) {
        #expect(APIRouter.market(fromVenueSymbol: id) == market)
        #expect(APIRouter.venueSymbol(for: market) == id)
    }

    @Test(
        "ids that are not BASE-QUOTE with a quote agg asks for map to nothing",
        arguments: ["BTCUSD", "BTC-GBP", "-USD", "BTC-", "btc-usd", "A-B-USD"])
    func badIDs(id: String) {
        #expect(APIRouter.market(fromVenueSymbol: id) == nil)
    }
}

@Suite("Coinbase decoding")
struct CoinbaseDecodingTests {
    /// Both requests must be in flight at once: the scripted client holds each answer for a
    /// second and records the peak of requests in flight, which shows concurrency without
    /// depending on how busy the machine is.
    @Test("ticker and stats are asked for at once: two slow answers take one round trip")
    func concurrentRequests() async throws {
        let delay = Duration.seconds(1)
        let client = AsyncScriptedHTTPClient(
            delay: delay, responder: try FixtureResponder(venue: "coinbase", baseURL: base))
        let quote = try await bed.adapter(client).quote(for: btc)
        #expect(quote.last == decimal("58431.29"))
        #expect(
            Set(client.requests.map(\.url)) == [base + "/products/BTC-USD/ticker", base + "/products/BTC-USD/stats"])
        #expect(client.peakConcurrentRequests == 2)
    }
}

@Suite("Coinbase errors")
struct CoinbaseErrorTests {
    @Test("stats without an open: no change, and so no change basis")
    func noOpen() async throws {
        let ticker = try Fixtures.bytes("coinbase/products_BTC-USD_ticker.json")
        let client = ScriptedHTTPClient { request in
            let body = request.url.hasSuffix("/stats") ? Array(#"{"high":"1","low":"1","volume":"1"}"#.utf8) : ticker
            return HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        let quote = try await bed.adapter(client).quote(for: btc)
        #expect(quote.change == nil && quote.changePercent == nil)
        #expect(quote.changeBasis == nil)
        #expect(CoinbaseAdapter.descriptor.changeBasis == .rolling24h)
    }

    @Test(
        "a failing stats request leaves the stats fields empty, says so once, and the ticker still answers",
        arguments: [
            (
                TransportError.timeout(url: base + "/products/BTC-USD/stats", seconds: 3) as (any Error)?, nil as Int?,
                "no answer within 3 s from \(base)/products/BTC-USD/stats"
            ),
            (nil, 503, "HTTP 503 from \(base)/products/BTC-USD/stats"),
        ])
    func statsFails(thrown: (any Error)?, status: Int?, summary: String) async throws {
        let responder = try FixtureResponder(venue: "coinbase", baseURL: base)
        let client = ScriptedHTTPClient { request in
            guard request.url.hasSuffix("/stats") else { return try responder.respond(to: request) }
            if let thrown { throw thrown }
            return HTTPResponse(status: status ?? 500, headers: [], body: Array("busy".utf8), url: request.url)
        }
        let notes = NoteLog()
        let coinbase = CoinbaseAdapter(
            environment: AdapterEnvironment(baseURL: base, http: client, notes: AdapterNotes { notes.append($0) }))
        let quote = try await coinbase.quote(for: btc)
        #expect(
            quote
                == Quote(
                    exchange: "coinbase", market: btc, last: decimal("58431.29"), changeBasis: nil,
                    timestamp: Timestamp(millisecondsSince1970: 1_723_104_734_874)))
        #expect(
            notes.all == [
                "coinbase BTC/USD: 24-hour stats failed (\(summary)); the quote has no open, high, low, volume or change"
            ])
    }

    @Test("a failing ticker request still fails the quote, whatever the stats say")
    func tickerFails() async throws {
        let responder = try FixtureResponder(venue: "coinbase", baseURL: base)
        let client = ScriptedHTTPClient { request in
            guard !request.url.hasSuffix("/ticker") else { throw TransportError.timeout(url: request.url, seconds: 3) }
            return try responder.respond(to: request)
        }
        await #expect(
            throws: AggError.timeout(venue: "coinbase", url: base + "/products/BTC-USD/ticker", seconds: 3)
        ) {
            try await bed.adapter(client).quote(for: btc)
        }
    }

    @Test(
        "a time that is not ISO 8601 is a decoding error naming the venue",
        arguments: [(200, "{\"price\":\"1\",\"open\":\"1\",\"time\":\"yesterday\"}", "decoding")])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "coinbase")
        #expect(error?.description.contains("\n") == false)
    }
}

/// The notes an adapter said, in order.
private final class NoteLog: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}
