import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Kraken

// What Kraken answers from its recordings (every capability, exact values, requests and errors) is
// data: Fixtures/kraken/expectations.json, run by VenueExpectationTests. These are Kraken's quirks.

private let bed = AdapterTestBed(KrakenAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")

/// The BTC/USD ticker of the sample data: the change from today's open, 58419.9 − 57210.4.
private let btcQuote = Quote(
    exchange: "kraken", market: btc, last: decimal("58419.9"), open: decimal("57210.4"), high: 59140,
    low: 56402, change: decimal("1209.5"), changePercent: decimal("2.1141"), changeBasis: .sinceUTCMidnight,
    baseVolume: decimal("4318.24710582"))

@Suite("Kraken names and router")
struct KrakenRouterTests {
    @Test(
        "every endpoint's URL, BTC asked for as XBT",
        arguments: [
            (APIRouter.ticker(btc), "/0/public/Ticker?pair=XBTUSD"),
            (.ticker(Market(base: "DOGE", quote: "EUR")), "/0/public/Ticker?pair=XDGEUR"),
            (.ticker(Market(base: "SOL", quote: "USDT")), "/0/public/Ticker?pair=SOLUSDT"),
            (.allTickers, "/0/public/Ticker"),
            (.assetPairs, "/0/public/AssetPairs"),
            (.depth(btc, count: 10), "/0/public/Depth?pair=XBTUSD&count=10"),
            (.trades(btc, count: 100), "/0/public/Trades?pair=XBTUSD&count=100"),
            (.ohlc(btc, interval: .oneMinute), "/0/public/OHLC?pair=XBTUSD&interval=1"),
            (.ohlc(eth, interval: .oneDay), "/0/public/OHLC?pair=ETHUSD&interval=1440"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/kraken") == "http://127.0.0.1:8080/kraken" + path)
    }

    @Test(
        "the pair names Kraken answers under map back to markets, legacy prefixes and all",
        arguments: [
            ("XXBTZUSD", "USD", Optional(btc)), ("XETHZUSD", "USD", eth),
            ("XXDGZUSD", "USD", Market(base: "DOGE", quote: "USD")),
            ("SOLUSD", "USD", Market(base: "SOL", quote: "USD")),
            ("XTZUSD", "USD", Market(base: "XTZ", quote: "USD")),
            ("USDTZUSD", "USD", Market(base: "USDT", quote: "USD")),
            ("USDCUSD", "USD", Market(base: "USDC", quote: "USD")),
            ("XXBTZEUR", "EUR", Market(base: "BTC", quote: "EUR")),
            ("USDTEUR", "EUR", Market(base: "USDT", quote: "EUR")),
            ("XBTUSDT", "USDT", Market(base: "BTC", quote: "USDT")),
            ("XDGUSDT", "USDT", Market(base: "DOGE", quote: "USDT")),
            ("XETHXXBT", "BTC", Market(base: "ETH", quote: "BTC")),
            ("SOLXBT", "BTC", Market(base: "SOL", quote: "BTC")),
            ("XBTUSDT", "USD", nil), ("XXBTZEUR", "USD", nil), ("USD", "USD", nil), ("ZUSDZUSD", "USD", nil),
            ("XBT-USD", "USD", nil),
        ])
    func pairNames(name: String, quote: String, market: Market?) {
        #expect(KrakenPairs.market(fromPairName: name, quote: quote) == market)
    }

    @Test(
        "asset names: XBT is BTC, XDG is DOGE, legacy prefixes come off",
        arguments: [
            ("XXBT", "BTC"), ("XBT", "BTC"), ("XDG", "DOGE"), ("XXDG", "DOGE"), ("ZUSD", "USD"), ("XETH", "ETH"),
            ("SOL", "SOL"), ("USDT", "USDT"), ("XTZ", "XTZ"), ("XCN", "XCN"),
        ])
    func assetNames(name: String, code: String) {
        #expect(KrakenPairs.unifiedCode(name) == code)
    }

    @Test("the descriptor declares what the adapter does, and Kraken's limits")
    func descriptor() {
        let descriptor = KrakenAdapter.descriptor
        #expect(descriptor.id == "kraken")
        #expect(descriptor.country == "US")
        #expect(descriptor.homeCurrency == "USD")
        #expect(descriptor.quoteCurrencies == ["USD", "EUR", "USDT"])
        #expect(descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .stream])
        #expect(descriptor.requestsPerSecond == 1)
        #expect(descriptor.changeBasis == .sinceUTCMidnight)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 720, trades: 1000, bookDepth: 500,
                    candleIntervals: [.oneMinute, .fiveMinutes, .thirtyMinutes, .oneHour, .oneDay]))
    }
}

@Suite("Kraken tickers")
struct KrakenTickerTests {
    @Test("an answer for another pair than the one asked for is a decoding error")
    func wrongPair() async throws {
        let body = try Fixtures.bytes("kraken/Ticker_ETHUSD.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(
            throws: AggError.decoding(
                venue: "kraken", path: "$.result.XETHZUSD", detail: "asked for BTC/USD, got ETH/USD")
        ) {
            try await bed.adapter(client).quote(for: btc)
        }
    }
}

@Suite("Kraken market data")
struct KrakenMarketDataTests {
    @Test(
        "trade times in seconds become exact milliseconds; other text is refused",
        arguments: [
            ("1723104734.5678", Optional(Int64(1_723_104_734_567))), ("1723104734", 1_723_104_734_000),
            ("1723104734.5", 1_723_104_734_500), ("1723104734.0009999", 1_723_104_734_000),
            ("-1", nil), ("1.5e9", nil), ("", nil), ("17231047345678999", nil), ("12.", nil),
        ])
    func tradeTimes(text: String, milliseconds: Int64?) async {
        // Sent as a string: the numbers' own path is covered by the recorded trades.
        let body = #"{"error":[],"result":{"XXBTZUSD":[["1","1","\#(text)","b","l",""]]}}"#
        let client = ScriptedHTTPClient(body: body)
        do {
            let trades = try await bed.adapter(client).trades(for: btc, limit: 1)
            #expect(trades.first?.time.millisecondsSince1970 == milliseconds)
        } catch {
            #expect(milliseconds == nil)
            #expect(error.kind == "decoding")
        }
    }
}

@Suite("Kraken errors")
struct KrakenErrorTests {
    @Test(
        "error arrays become typed errors; warnings alone do not fail an answer",
        arguments: [
            (
                #"{"error":["EQuery:Unknown asset pair"],"result":{}}"#,
                AggError.notListed(
                    venue: "kraken", market: btc, code: "EQuery:Unknown asset pair", message: "Unknown asset pair")
            ),
            (#"{"error":["EAPI:Rate limit exceeded"]}"#, .rateLimited(venue: "kraken", retryAfterSeconds: nil)),
            (#"{"error":["EGeneral:Too many requests"]}"#, .rateLimited(venue: "kraken", retryAfterSeconds: nil)),
            (
                #"{"error":["EService:Unavailable","EService:Busy"]}"#,
                .venue(venue: "kraken", code: "EService:Unavailable", message: "Unavailable; EService:Busy")
            ),
            (
                #"{"error":["EGeneral:Internal error"]}"#,
                .venue(venue: "kraken", code: "EGeneral:Internal error", message: "Internal error")
            ),
        ])
    func envelopes(body: String, expected: AggError) async throws {
        let client = ScriptedHTTPClient(body: body)
        await #expect(throws: expected) {
            try await bed.adapter(client).quote(for: btc)
        }
    }

    @Test("a warning with a result decodes the result")
    func warning() async throws {
        let ticker = try String(decoding: Fixtures.bytes("kraken/Ticker_XBTUSD.json"), as: UTF8.self)
        let client = ScriptedHTTPClient(
            body: ticker.replacing(#""error":[]"#, with: #""error":["WGeneral:Deprecated"]"#))
        #expect(try await bed.adapter(client).quote(for: btc) == btcQuote)
    }

    @Test("the rate-limit error fixture reads as a rate limit")
    func rateLimitFixture() async throws {
        let body = try Fixtures.bytes("kraken/error_rate_limit_exceeded.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(throws: AggError.rateLimited(venue: "kraken", retryAfterSeconds: nil)) {
            try await bed.adapter(client).allQuotes(quotedIn: "USD")
        }
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (520, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"error":[],"result":{}}"#, "decoding"),
            (200, #"{"error":[],"result":{"XXBTZUSD":{"c":[]}}}"#, "decoding"),
            (200, #"{"error":[],"result":{"XXBTZUSD":{"c":["58,419.9.0"]}}}"#, "decoding"),
            (200, #"{"error":[],"result":{"XXBTZUSD":{"c":["1"]},"XETHZUSD":{"c":["1"]}}}"#, "decoding"),
            (200, #"{"error":"EQuery:Unknown asset pair"}"#, "decoding"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "kraken")
        #expect(error?.description.contains("\n") == false)
    }
}
