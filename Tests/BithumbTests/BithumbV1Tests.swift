import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Bithumb

private let bed = AdapterTestBed(BithumbAdapter.self)
private let btc = bed.market("BTC")
private let nope = bed.market("NOPE")

/// An adapter set to `api` in the config file, over `client`.
private func adapter(_ client: any HTTPClient, api: String, baseURL: String = bed.baseURL) -> BithumbAdapter {
    BithumbAdapter(environment: AdapterEnvironment(baseURL: baseURL, http: client, settings: ["api": api]))
}

/// BTC/KRW from the v1 sample data, every field: the change as Bithumb sends it, the fractional
/// rate as a percent, no change basis, the time of the last trade (`trade_timestamp`, which names
/// the same second as `trade_date`/`trade_time`).
private let v1Quote = Quote(
    exchange: "bithumb", market: btc, last: 80_630_000, open: 79_999_000, high: 81_500_000, low: 77_734_000,
    previousClose: 79_999_000, change: 631_000, changePercent: decimal("0.78875986"), changeBasis: nil,
    baseVolume: decimal("1368.01423432"), quoteVolume: decimal("109282011238.50126"),
    timestamp: Timestamp(millisecondsSince1970: 1_723_104_734_990))

/// An HTML page as a web server sends it for a path it does not route.
private let notFoundPage = LoopbackReply.bytes(
    Array("<!DOCTYPE html>\n<html><body><h1>404 Not Found</h1></body></html>".utf8), status: 404,
    contentType: "text/html")

@Suite("Bithumb v1 API")
struct BithumbV1Tests {
    @Test("the setting: classic by default, v1 when the config file says so, classic for anything else")
    func setting() throws {
        #expect(BithumbAdapter.descriptor.settings == [BithumbAPI.setting])
        #expect(BithumbAPI.setting.values == ["classic", "v1"])
        #expect(BithumbAPI.setting.defaultValue == "classic")
        let client = try bed.recorded()
        #expect(bed.adapter(client).firstAPI(for: "ticker") == .classic)
        #expect(adapter(client, api: "v1").firstAPI(for: "ticker") == .v1)
        #expect(adapter(client, api: "v2").firstAPI(for: "ticker") == .classic)
    }

    @Test(
        "every v1 endpoint's URL",
        arguments: [
            (V1Router.ticker([btc, bed.market("ETH")]), "/v1/ticker?markets=KRW-BTC,KRW-ETH"),
            (.marketAll, "/v1/market/all"),
            (.candles(btc, interval: .oneHour, count: 200), "/v1/candles/minutes/60?market=KRW-BTC&count=200"),
            (.candles(btc, interval: .oneDay, count: 3), "/v1/candles/days?market=KRW-BTC&count=3"),
            (.trades(btc, count: 100), "/v1/trades/ticks?market=KRW-BTC&count=100"),
            (.orderBook(btc), "/v1/orderbook?markets=KRW-BTC"),
        ])
    func urls(route: V1Router, path: String) {
        #expect(route.url(baseURL: bed.baseURL) == bed.baseURL + path)
    }

    @Test("v1: one ticker, every field exact, from /v1/ticker")
    func quote() async throws {
        let client = try bed.recorded()
        #expect(try await adapter(client, api: "v1").quote(for: btc) == v1Quote)
        #expect(client.requests.map(\.url) == [bed.baseURL + "/v1/ticker?markets=KRW-BTC"])
    }

    /// A real v1 ticker body (2026-07): `trade_date`/`trade_time` in UTC, `trade_date_kst`/
    /// `trade_time_kst` 9 hours on, and `timestamp`/`trade_timestamp` the Korean wall time written
    /// as epoch milliseconds (2026-07-02T08:35:33.650Z read as UTC).
    static func realTicker(tradeTimestamp: String, timestamp: String = "1782981333650") -> String {
        #"[{"market":"KRW-BTC","trade_date":"20260701","trade_time":"233533","trade_date_kst":"20260702","#
            + #""trade_time_kst":"083533","trade_timestamp":\#(tradeTimestamp),"opening_price":160010000,"#
            + #""high_price":160400000,"low_price":159650000,"trade_price":160045000,"prev_closing_price":160010000,"#
            + #""change":"RISE","change_price":35000,"change_rate":0.00021874,"signed_change_price":35000,"#
            + #""signed_change_rate":0.00021874,"trade_volume":0.0001,"acc_trade_price":9806421360.10621,"#
            + #""acc_trade_price_24h":74531005932.37426,"acc_trade_volume":61.27893431,"#
            + #""acc_trade_volume_24h":465.83611254,"highest_52_week_price":166000000,"#
            + #""highest_52_week_date":"2025-10-06","lowest_52_week_price":107000000,"#
            + #""lowest_52_week_date":"2026-02-06","timestamp":\#(timestamp)}]"#
    }

    @Test(
        "v1: a ticker's time is its last trade's in UTC, whether trade_timestamp is 9 h ahead (as sent), true, odd or absent",
        arguments: [
            ("1782981333650", Int64(1_782_948_933_650)),  // Korean wall time as epoch ms (the real body)
            ("1782948933650", Int64(1_782_948_933_650)),  // true epoch ms, should Bithumb fix it
            ("1782900000000", Int64(1_782_948_933_000)),  // names another second: trade_time alone
            ("null", Int64(1_782_948_933_000)),
        ])
    func tickerTime(tradeTimestamp: String, expected: Int64) async throws {
        let client = ScriptedHTTPClient(body: Self.realTicker(tradeTimestamp: tradeTimestamp))
        let quote = try await adapter(client, api: "v1").quote(for: btc)
        #expect(quote.timestamp == Timestamp(millisecondsSince1970: expected))
        #expect(
            quote.timestamp?.description
                == (expected % 1000 == 0 ? "2026-07-01T23:35:33.000Z" : "2026-07-01T23:35:33.650Z"))
        #expect(quote.last == 160_045_000)
    }

    @Test("v1: a trade_time that is not HHMMSS is a decoding error at its path")
    func badTradeTime() async throws {
        let body = Self.realTicker(tradeTimestamp: "1782981333650").replacing(#""233533""#, with: #""23:35:33""#)
        let client = ScriptedHTTPClient(body: body)
        await #expect(
            throws: AggError.decoding(
                venue: "bithumb", path: "$[0].trade_time",
                detail: "expected trade_date 'YYYYMMDD' and trade_time 'HHMMSS' (UTC)")
        ) {
            try await adapter(client, api: "v1").quote(for: btc)
        }
    }

    @Test("v1: exponents in small numbers are read exactly")
    func exponents() async throws {
        let quote = try await adapter(try bed.recorded(), api: "v1").quote(for: Market(base: "ETH", quote: "BTC"))
        #expect(quote.change == decimal("-0.00013"))
        #expect(quote.changePercent == decimal("-0.30689"))
        #expect(quote.last == decimal("0.04223"))
    }

    @Test("v1: all tickers are the market list, then the tickers of its markets in one currency")
    func allTickers() async throws {
        let client = try bed.recorded()
        let quotes = try await adapter(client, api: "v1").allQuotes(quotedIn: "KRW")
        #expect(
            client.requests.map(\.url) == [
                bed.baseURL + "/v1/market/all", bed.baseURL + "/v1/ticker?markets=KRW-BTC,KRW-ETH,KRW-XRP",
            ])
        #expect(quotes.map(\.market.base) == ["BTC", "ETH", "XRP"])
        #expect(quotes.first == v1Quote)
        #expect(quotes.last?.last == decimal("790.1"))
    }

    @Test("v1: an unknown market is not listed, with Bithumb's code and message (HTTP 200)")
    func unlisted() async throws {
        await #expect(
            throws: AggError.notListed(venue: "bithumb", market: nope, code: "404", message: "Code not found")
        ) {
            try await adapter(try bed.recorded(), api: "v1").quote(for: nope)
        }
    }

    @Test("v1: book, trades and candles, exact, in agg's order")
    func marketData() async throws {
        let bithumb = adapter(try bed.recorded(), api: "v1")
        let book = try await bithumb.orderBook(for: btc, depth: 2)
        #expect(
            book.bids == [
                BookLevel(price: 80_630_000, amount: decimal("0.10472511")),
                BookLevel(price: 80_629_000, amount: decimal("1.2")),
            ])
        #expect(
            book.asks == [
                BookLevel(price: 80_631_000, amount: decimal("0.0315")),
                BookLevel(price: 80_633_000, amount: decimal("0.4")),
            ])
        #expect(book.timestamp == Timestamp(millisecondsSince1970: 1_723_104_735_101))
        let trades = try await bithumb.trades(for: btc, limit: 2)
        #expect(
            trades == [
                Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_990), side: .buy, price: 80_630_000,
                    amount: decimal("0.00124"), cost: decimal("99981.2")),
                Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_571), side: .sell, price: 80_629_000,
                    amount: decimal("0.05"), cost: decimal("4031450")),
            ])
        let candles = try await bithumb.candles(for: btc, interval: .oneMinute, limit: 2)
        #expect(candles.map(\.close) == [80_620_000, 80_630_000])
        #expect(candles.last?.volume == decimal("12.5"))
        #expect(candles.last?.time == Timestamp(millisecondsSince1970: 1_723_104_720_000))
        await #expect(
            throws: AggError.usage(
                "bithumb's v1 API does not offer 6h candles; its intervals: 1m, 3m, 5m, 10m, 30m, 1h, 24h")
        ) {
            try await bithumb.candles(for: btc, interval: .sixHours, limit: 2)
        }
    }

    @Test(
        "v1 set: transfer status still comes from the classic API, the only one publishing it, with /v2/fee/inout's fees"
    )
    func transfers() async throws {
        let client = try bed.recorded()
        let rows = try await adapter(client, api: "v1").transferStatus(coins: ["BTC"])
        #expect(
            rows == [
                TransferStatus(
                    exchange: "bithumb", coin: "BTC", network: "BTC", deposit: .open, withdraw: .open,
                    withdrawal: .fixed(decimal("0.0005")), withdrawMinimum: decimal("0.001"), feeSource: .venue)
            ])
        #expect(
            client.requests.map(\.url).sorted()
                == [bed.baseURL + "/public/assetsstatus/multichain/ALL", bed.baseURL + "/v2/fee/inout/ALL"])
    }
}

/// The fallback between the two APIs, over real HTTP against the loopback fixture server.
@Suite("Bithumb API fallback over HTTP")
struct BithumbFallbackTests {
    @Test("classic set, /public/* answering an HTML 404: v1 answers, and is asked first from then on")
    func classicToV1() async throws {
        let server = try FixtureServer(venues: ["bithumb"]) { _, request in
            request.path.hasPrefix("/public/") ? notFoundPage : nil
        }
        defer { server.stop() }
        let http = CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))
        let bithumb = adapter(http, api: "classic", baseURL: server.baseURL(for: "bithumb"))
        #expect(try await bithumb.quote(for: btc) == v1Quote)
        #expect(bithumb.firstAPI(for: "ticker") == .v1)
        #expect(bithumb.firstAPI(for: "orderBook") == .classic)
        #expect(try await bithumb.quote(for: btc) == v1Quote)
        #expect(
            server.requests.map(\.target) == [
                "/bithumb/public/ticker/BTC_KRW", "/bithumb/v1/ticker?markets=KRW-BTC",
                "/bithumb/v1/ticker?markets=KRW-BTC",
            ])
    }

    @Test("v1 set, /v1/* answering an HTML page with HTTP 200: the classic API answers")
    func v1ToClassic() async throws {
        let server = try FixtureServer(venues: ["bithumb"]) { _, request in
            request.path.hasPrefix("/v1/")
                ? .bytes(Array("<html><body>점검 중</body></html>".utf8), contentType: "text/html") : nil
        }
        defer { server.stop() }
        let http = CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))
        let bithumb = adapter(http, api: "v1", baseURL: server.baseURL(for: "bithumb"))
        let quote = try await bithumb.quote(for: btc)
        #expect(quote.last == 80_630_000)
        #expect(quote.changeBasis == .rolling24h)
        #expect(bithumb.firstAPI(for: "ticker") == .classic)
        #expect(
            server.requests.map(\.target) == ["/bithumb/v1/ticker?markets=KRW-BTC", "/bithumb/public/ticker/BTC_KRW"])
    }

    @Test("no fallback on the venue's own answers: an unlisted coin, a JSON 404, a server error")
    func noFallback() async throws {
        let server = try FixtureServer(venues: ["bithumb"]) { _, request in
            switch request.path {
            case "/public/ticker/ETH_KRW": .json(#"{"status":"5500","message":"Invalid Parameter"}"#, status: 404)
            case "/public/orderbook/BTC_KRW": .json(#"{"status":"5900","message":"Unknown Error"}"#, status: 500)
            default: nil
            }
        }
        defer { server.stop() }
        let http = CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))
        let bithumb = adapter(http, api: "classic", baseURL: server.baseURL(for: "bithumb"))
        await #expect(throws: AggError.notListed(venue: "bithumb", market: nope, code: "5500", message: "잘못된 코인명입니다."))
        {
            try await bithumb.quote(for: nope)
        }
        let eth = bed.market("ETH")
        await #expect(
            throws: AggError.notListed(venue: "bithumb", market: eth, code: "5500", message: "Invalid Parameter")
        ) {
            try await bithumb.quote(for: eth)
        }
        await #expect(throws: AggError.venue(venue: "bithumb", code: "5900", message: "Unknown Error")) {
            try await bithumb.orderBook(for: btc, depth: 5)
        }
        #expect(bithumb.firstAPI(for: "ticker") == .classic)
        #expect(server.requests.allSatisfy { $0.target.hasPrefix("/bithumb/public/") })
    }

    @Test("both APIs missing: the first one's error")
    func bothMissing() async throws {
        let server = try FixtureServer(venues: ["bithumb"]) { _, _ in notFoundPage }
        defer { server.stop() }
        let base = server.baseURL(for: "bithumb")
        let bithumb = adapter(
            CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5)), api: "classic", baseURL: base)
        await #expect(throws: AggError.http(venue: "bithumb", status: 404, url: base + "/public/ticker/BTC_KRW")) {
            try await bithumb.quote(for: btc)
        }
        #expect(bithumb.firstAPI(for: "ticker") == .classic)
    }
}
