import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Coinbase

// What Coinbase answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/coinbase/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(CoinbaseAdapter.self)
private let base = bed.baseURL
private let btc = Market(base: "BTC", quote: "USD")

@Suite("Coinbase market data router and descriptor")
struct CoinbaseMarketDataRouterTests {
    @Test(
        "candles, trades and book URLs",
        arguments: [
            (APIRouter.candles(btc, interval: .oneMinute), "/products/BTC-USD/candles?granularity=60"),
            (.candles(btc, interval: .fiveMinutes), "/products/BTC-USD/candles?granularity=300"),
            (.candles(btc, interval: .oneHour), "/products/BTC-USD/candles?granularity=3600"),
            (.candles(btc, interval: .sixHours), "/products/BTC-USD/candles?granularity=21600"),
            (.candles(btc, interval: .oneDay), "/products/BTC-USD/candles?granularity=86400"),
            (.trades(Market(base: "ETH", quote: "USDT"), limit: 100), "/products/ETH-USDT/trades?limit=100"),
            (.book(btc), "/products/BTC-USD/book?level=2"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
    }

    @Test("the descriptor declares candles, trades and book with Coinbase's limits and granularities")
    func descriptor() {
        let descriptor = CoinbaseAdapter.descriptor
        #expect(descriptor.capabilities == [.ticker, .markets, .candles, .trades, .orderBook, .stream])
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 300, trades: 1000, bookDepth: 1000,
                    candleIntervals: [.oneMinute, .fiveMinutes, .oneHour, .sixHours, .oneDay]))
    }
}

@Suite("Coinbase candles")
struct CoinbaseCandlesTests {
    @Test(
        "rows not in Coinbase's shape are decoding errors at their path",
        arguments: [
            ("[[1723104720,1,2,1.5,1.7]]", "$[0][5]", "expected a decimal, found nothing"),
            ("[[1723104720.5,1,2,1.5,1.7,3]]", "$[0][0]", "'1723104720.5' is not a whole number in range"),
            // Seconds that cannot be counted in milliseconds (the fuzzer's find: it used to trap).
            ("[[9223372036854775807,1,2,1.5,1.7,3]]", "$[0][0]", "9223372036854775807 seconds is out of range"),
            ("[[-9223372036854775808,1,2,1.5,1.7,3]]", "$[0][0]", "-9223372036854775808 seconds is out of range"),
            (#"{"candles":[]}"#, "$", "expected an array, found an object"),
        ])
    func malformed(body: String, path: String, detail: String) async {
        await #expect(throws: AggError.decoding(venue: "coinbase", path: path, detail: detail)) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }

    @Test("Coinbase's own error (a granularity it refuses) keeps its message, the status as its code")
    func venueError() async {
        let client = ScriptedHTTPClient(status: 400, body: #"{"message":"Unsupported granularity"}"#)
        await #expect(throws: AggError.venue(venue: "coinbase", code: "400", message: "Unsupported granularity")) {
            try await bed.adapter(client).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }
}

@Suite("Coinbase trades")
struct CoinbaseTradesTests {
    @Test(
        "a side other than buy or sell, or a time that is not ISO 8601, is a decoding error",
        arguments: [
            (
                #"[{"time":"2024-08-08T08:12:14Z","trade_id":1,"price":"1","size":"1","side":"up"}]"#, "$[0].side",
                "unknown side 'up'"
            ),
            (
                #"[{"time":"08:12:14","trade_id":1,"price":"1","size":"1","side":"buy"}]"#, "$[0].time",
                "'08:12:14' is not an ISO-8601 time"
            ),
        ])
    func malformed(body: String, path: String, detail: String) async {
        await #expect(throws: AggError.decoding(venue: "coinbase", path: path, detail: detail)) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).trades(for: btc, limit: 1)
        }
    }
}

@Suite("Coinbase order book")
struct CoinbaseOrderBookTests {
    @Test("a book without a time has none")
    func untimed() async throws {
        let bare = try await bed.adapter(
            ScriptedHTTPClient(body: #"{"bids":[["1","2",1]],"asks":[["3","4",2]],"sequence":1}"#)
        )
        .orderBook(for: btc, depth: 5)
        #expect(bare.timestamp == nil)
        #expect(bare.bids == [BookLevel(price: 1, amount: 2)] && bare.asks == [BookLevel(price: 3, amount: 4)])
    }
}
