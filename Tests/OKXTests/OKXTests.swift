import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import OKX

// What OKX answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/okx/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(OKXAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")

@Suite("OKX router")
struct OKXRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker(btc), "/api/v5/market/ticker?instId=BTC-USDT"),
            (.spotTickers, "/api/v5/market/tickers?instType=SPOT"),
            (.spotInstruments, "/api/v5/public/instruments?instType=SPOT"),
            (.books(btc, size: 20), "/api/v5/market/books?instId=BTC-USDT&sz=20"),
            (.trades(btc, limit: 100), "/api/v5/market/trades?instId=BTC-USDT&limit=100"),
            (
                .candles(btc, interval: .oneMinute, limit: 300),
                "/api/v5/market/candles?instId=BTC-USDT&bar=1m&limit=300"
            ),
            (.candles(eth, interval: .oneHour, limit: 5), "/api/v5/market/candles?instId=ETH-USDT&bar=1H&limit=5"),
            (.candles(eth, interval: .oneDay, limit: 5), "/api/v5/market/candles?instId=ETH-USDT&bar=1Dutc&limit=5"),
            (.candles(eth, interval: .sixHours, limit: 5), "/api/v5/market/candles?instId=ETH-USDT&bar=6Hutc&limit=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/okx") == "http://127.0.0.1:8080/okx" + path)
    }

    @Test(
        "instrument ids map to unified markets and back",
        arguments: [
            ("BTC-USDT", btc), ("ETH-BTC", Market(base: "ETH", quote: "BTC")),
            ("USDT-USDC", Market(base: "USDT", quote: "USDC")),
        ])
    func roundTrip(id: String, market: Market) {
        #expect(APIRouter.market(fromInstrumentID: id) == market)
        #expect(APIRouter.instrumentID(market) == id)
    }

    @Test(
        "ids that are not BASE-QUOTE with a quote agg asks OKX for map to nothing",
        arguments: ["BTC-EUR", "BTC-USDT-SWAP", "btc-usdt", "BTCUSDT", "-USDT", ""])
    func badIDs(id: String) {
        #expect(APIRouter.market(fromInstrumentID: id) == nil)
    }

    @Test("the descriptor declares what the adapter does, and OKX's limits")
    func descriptor() {
        let descriptor = OKXAdapter.descriptor
        #expect(descriptor.id == "okx")
        #expect(descriptor.homeCurrency == "USDT")
        #expect(descriptor.quoteCurrencies == ["USDT", "USDC", "BTC"])
        #expect(descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .stream])
        #expect(descriptor.requestsPerSecond == 10)
        #expect(descriptor.changeBasis == .rolling24h)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 300, trades: 500, bookDepth: 400,
                    candleIntervals: [
                        .oneMinute, .threeMinutes, .fiveMinutes, .thirtyMinutes, .oneHour, .sixHours, .twelveHours,
                        .oneDay,
                    ]))
    }
}

@Suite("OKX errors")
struct OKXErrorTests {
    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (503, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"code":"0","msg":"","data":{}}"#, "decoding"),
            (200, #"{"code":"0","msg":"","data":[]}"#, "decoding"),
            (200, #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":""}]}"#, "decoding"),
            (200, #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":"58415.3","ts":"soon"}]}"#, "decoding"),
            (200, #"{"code":"1","msg":"Operation failed."}"#, "venue"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "okx")
        #expect(error?.description.contains("\n") == false)
    }
}
