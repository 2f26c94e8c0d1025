import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Korbit

// What Korbit answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/korbit/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(KorbitAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")
private let nope = bed.market("NOPE")

/// The BTC/KRW ticker of the sample data, every field.
private let btcQuote = Quote(
    exchange: "korbit", market: btc, last: 80_645_000, open: 79_920_000, high: 81_470_000, low: 77_760_000,
    previousClose: 79_950_000, change: 695_000, changePercent: decimal("0.87"), baseVolume: decimal("184.35571236"),
    quoteVolume: decimal("14721590432.51286"), timestamp: Timestamp(millisecondsSince1970: 1_723_104_733_875))

@Suite("Korbit router")
struct KorbitRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.tickers([btc]), "/v2/tickers?symbol=btc_krw"),
            (.tickers([btc, eth]), "/v2/tickers?symbol=btc_krw,eth_krw"),
            (.allTickers, "/v2/tickers"),
            (.currencyPairs, "/v2/currencyPairs"),
            (.orderBook(btc), "/v2/orderbook?symbol=btc_krw"),
            (.trades(btc, limit: 500), "/v2/trades?symbol=btc_krw&limit=500"),
            (.candles(btc, interval: .oneMinute, limit: 200), "/v2/candles?symbol=btc_krw&interval=1&limit=200"),
            (.candles(eth, interval: .oneHour, limit: 5), "/v2/candles?symbol=eth_krw&interval=60&limit=5"),
            (.candles(eth, interval: .oneDay, limit: 5), "/v2/candles?symbol=eth_krw&interval=1D&limit=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/korbit") == "http://127.0.0.1:8080/korbit" + path)
    }

    @Test(
        "symbols map to unified markets and back",
        arguments: [("btc_krw", btc), ("eth_krw", eth), ("1inch_krw", Market(base: "1INCH", quote: "KRW"))])
    func roundTrip(symbol: String, market: Market) {
        #expect(APIRouter.market(fromSymbol: symbol) == market)
        #expect(APIRouter.symbol(market) == symbol)
    }

    @Test(
        "symbols that are not base_quote with a quote Korbit serves map to nothing",
        arguments: ["btc", "btc_usdt", "btc-krw", "_krw", "btc_krw_x", "", "비트_krw"])
    func badSymbols(symbol: String) {
        #expect(APIRouter.market(fromSymbol: symbol) == nil)
    }

    @Test("the descriptor declares what the adapter does, and Korbit's limits")
    func descriptor() {
        let descriptor = KorbitAdapter.descriptor
        #expect(descriptor.id == "korbit")
        #expect(descriptor.country == "KR")
        #expect(descriptor.homeCurrency == "KRW")
        #expect(
            descriptor.capabilities
                == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream])
        #expect(descriptor.requestsPerSecond == 50)
        #expect(descriptor.changeBasis == nil)
        #expect(descriptor.notListedCodes == ["INVALID_CURRENCY_PAIR"])
        #expect(descriptor.defaultBaseURL == base)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 200, trades: 500, bookDepth: 30,
                    candleIntervals: [.oneMinute, .fiveMinutes, .thirtyMinutes, .oneHour, .oneDay]))
    }
}

@Suite("Korbit rate limit header")
struct KorbitRateLimitTests {
    /// A response carrying Korbit's `Ratelimit` header.
    private func response(_ header: String?) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: header.map { [HTTPHeader(name: "ratelimit", value: $0)] } ?? [], body: [], url: base)
    }

    @Test("the descriptor names the Ratelimit header; the next request waits for the window only when none is left")
    func pause() throws {
        let header = try #require(KorbitAdapter.descriptor.quotaHeader)
        #expect(header == .rateLimit)
        #expect(header.pause(after: response("limit=50, remaining=0, reset=1")) == 1)
        #expect(header.pause(after: response("remaining=0,reset=3,limit=50")) == 3)
        #expect(header.pause(after: response("limit=50, remaining=1, reset=1")) == nil)
        #expect(header.pause(after: response("limit=50, remaining=x, reset=1")) == nil)
        #expect(header.pause(after: response(nil)) == nil)
    }
}

@Suite("Korbit errors")
struct KorbitErrorTests {
    @Test(
        "error envelopes become typed errors",
        arguments: [
            (
                "korbit/error_400_invalid_currency_pair.json", 400, [HTTPHeader](),
                AggError.notListed(venue: "korbit", market: btc, code: "INVALID_CURRENCY_PAIR", message: "HTTP 400")
            ),
            (
                "korbit/error_400_bad_request.json", 400, [],
                .venue(venue: "korbit", code: "BAD_REQUEST", message: "HTTP 400")
            ),
            (
                "korbit/error_429_too_many_requests.json", 429, [HTTPHeader(name: "Retry-After", value: "1")],
                .rateLimited(venue: "korbit", retryAfterSeconds: 1)
            ),
        ])
    func envelopes(file: String, status: Int, headers: [HTTPHeader], expected: AggError) async throws {
        let error = try await bed.error(status: status, headers: headers, fixture: file) {
            try await $0.orderBook(for: btc, depth: 5)
        }
        #expect(error == expected)
    }

    @Test("a description, when Korbit sends one, is the message, verbatim")
    func description() async {
        let client = ScriptedHTTPClient(
            status: 400,
            body: #"{"success":false,"error":{"message":"INVALID_REQUEST","description":"limit must be 1..500"}}"#)
        await #expect(throws: AggError.venue(venue: "korbit", code: "INVALID_REQUEST", message: "limit must be 1..500"))
        {
            try await bed.adapter(client).trades(for: btc, limit: 5)
        }
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (502, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"success":true,"data":{}}"#, "decoding"),
            (200, #"{"success":true,"data":[{"symbol":"btc_krw","close":null}]}"#, "decoding"),
            (200, #"{"success":true,"data":[{"symbol":"btc_usdt","close":"1"}]}"#, "decoding"),
            (200, #"{"success":false}"#, "venue"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "korbit")
        #expect(error?.description.contains("\n") == false)
    }
}

/// The adapter over real HTTP: libcurl against the loopback server serving Fixtures/korbit.
@Suite("Korbit over HTTP")
struct KorbitLoopbackTests {
    @Test("the loopback server sends Korbit's Ratelimit header, which the rate limiter reads")
    func overHTTP() async throws {
        let server = try FixtureServer(venues: ["korbit"])
        defer { server.stop() }
        let http = CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))
        let response = try await http.send(
            HTTPRequest(url: server.baseURL(for: "korbit") + "/v2/tickers?symbol=btc_krw"))
        #expect(
            response.header("Ratelimit").flatMap(RateLimitWindow.init(header:))
                == RateLimitWindow(
                    limit: 50, remaining: 49, reset: 1))
    }
}
