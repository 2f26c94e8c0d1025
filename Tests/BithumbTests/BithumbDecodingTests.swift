import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Bithumb

// What Bithumb answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/bithumb/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(BithumbAdapter.self)
private let base = bed.baseURL

@Suite("Bithumb router")
struct BithumbRouterTests {
    static let btc = Market(base: "BTC", quote: "KRW")

    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker(btc), "/public/ticker/BTC_KRW"),
            (.ticker(Market(base: "ETH", quote: "BTC")), "/public/ticker/ETH_BTC"),
            (.allTickers(payment: "KRW"), "/public/ticker/ALL_KRW"),
            (.orderBook(btc, count: 30), "/public/orderbook/BTC_KRW?count=30"),
            (.transactionHistory(btc, count: 20), "/public/transaction_history/BTC_KRW?count=20"),
            (.candlestick(btc, interval: .oneMinute), "/public/candlestick/BTC_KRW/1m"),
            (.candlestick(Market(base: "1INCH", quote: "KRW"), interval: .oneDay), "/public/candlestick/1INCH_KRW/24h"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/bithumb") == "http://127.0.0.1:8080/bithumb" + path)
    }
}

@Suite("Bithumb decoding")
struct BithumbDecodingTests {
    /// Recorded ALL answers sometimes lack `data.date`; the tickers are still good, only the time
    /// is unknown. (The fixture is sample data cut from ticker_ALL_KRW.json, without the date.)
    @Test("an ALL answer without data.date gives every coin, with no timestamp")
    func allWithoutDate() async throws {
        let body = String(decoding: try Fixtures.bytes("bithumb/ticker_ALL_KRW_nodate.json"), as: UTF8.self)
        let quotes = try await bed.adapter(ScriptedHTTPClient(body: body)).allQuotes(quotedIn: "KRW")
        #expect(quotes.map(\.market.base).sorted() == ["BTC", "ETH", "XRP"])
        #expect(quotes.allSatisfy { $0.timestamp == nil })
        let btc = try #require(quotes.first { $0.market.base == "BTC" })
        var dated = try await bed.adapter(try bed.recorded()).quote(for: Market(base: "BTC", quote: "KRW"))
        dated.timestamp = nil
        #expect(btc == dated)
    }

    @Test("a date that is present must still be a whole number")
    func allWithBadDate() async {
        let body = #"{"status":"0000","data":{"BTC":{"closing_price":"1"},"date":"yesterday"}}"#
        await #expect(
            throws: AggError.decoding(
                venue: "bithumb", path: "$.data.date", detail: "'yesterday' is not a whole number in range")
        ) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).allQuotes(quotedIn: "KRW")
        }
    }

    @Test("ALL skips entries that are not ticker objects, and reports each")
    func allSkipsOddEntries() throws {
        let json = JSONCursor(try JSONParser.parse(try Fixtures.bytes("bithumb/ticker_ALL_KRW_odd.json")))
        let answer = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW"))
        let quotes = answer.values
        #expect(quotes.map(\.market.base) == ["BTC", "XRP"])
        #expect(
            answer.skipped.map(\.description) == [
                "bithumb: skipped NOTICE: unexpected response at $.data.NOTICE: expected a ticker object, found a string",
                "bithumb: skipped EMPTY: unexpected response at $.data.EMPTY: expected a ticker object, found null",
            ])
        #expect(quotes[1].last == decimal("790.4"))
        #expect(quotes[1].baseVolume == decimal("130241587.45521309"))
    }

    /// A number with a decimal comma or a thousands separator would be misread by a factor of
    /// 1000; anything outside `-?digits(.digits)?([eE][+-]?digits)?` fails, naming its path.
    @Test(
        "a price that is not a plain decimal is a decoding error naming its path",
        arguments: [
            ("closing_price", "80,630.5"), ("closing_price", "80630,5"), ("units_traded_24H", "1,234"),
            ("max_price", " 81500000"), ("min_price", ".5"), ("fluctate_24H", "+435000"),
        ])
    func lenientNumbersFail(field: String, text: String) async {
        var ticker: [String: String] = [
            "opening_price": "79934000", "closing_price": "80630000", "min_price": "77734000",
            "max_price": "81500000", "prev_closing_price": "79999000", "units_traded_24H": "1368.01423432",
            "acc_trade_value_24H": "109282011238.50126", "fluctate_24H": "-435000", "fluctate_rate_24H": "-0.54",
            "date": "1723104735027",
        ]
        ticker[field] = text
        let body =
            "{\"status\":\"0000\",\"data\":{"
            + ticker.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",") + "}}"
        await #expect(
            throws: AggError.decoding(
                venue: "bithumb", path: "$.data.\(field)", detail: "'\(text)' is not a decimal number")
        ) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).quote(for: Market(base: "BTC", quote: "KRW"))
        }
    }
}

@Suite("Bithumb errors")
struct BithumbErrorTests {
    @Test(
        "a status other than 0000 is a venue error with the message verbatim, whatever the HTTP status",
        arguments: [
            ("bithumb/error_5600.json", 200, "5600", "입력값을 확인해주세요."),
            ("bithumb/error_5600_too_many.json", 200, "5600", "요청 횟수가 너무 많습니다. 잠시 후 다시 시도해주세요."),
            ("bithumb/error_5600.json", 400, "5600", "입력값을 확인해주세요."),
        ])
    func venueErrors(file: String, status: Int, code: String, message: String) async throws {
        let body = try Fixtures.bytes(file)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: status, headers: [], body: body, url: request.url)
        }
        await #expect(throws: AggError.venue(venue: "bithumb", code: code, message: message)) {
            try await bed.adapter(client).quote(for: Market(base: "NOPE", quote: "KRW"))
        }
    }

    /// The calls that ask about one market; Bithumb answers each with 5500 for a coin it does not
    /// list (HTTP 200, sometimes 400).
    static let singleMarketCalls: [(String, @Sendable (BithumbAdapter, Market) async throws(AggError) -> Void)] = [
        ("ticker", { adapter, market throws(AggError) in _ = try await adapter.quote(for: market) }),
        ("order book", { adapter, market throws(AggError) in _ = try await adapter.orderBook(for: market, depth: 5) }),
        ("trades", { adapter, market throws(AggError) in _ = try await adapter.trades(for: market, limit: 5) }),
        (
            "candles",
            { adapter, market throws(AggError) in
                _ = try await adapter.candles(for: market, interval: .oneMinute, limit: 5)
            }
        ),
    ]

    @Test("5500 on any single-market call is not listed, keeping the code and message", arguments: [200, 400])
    func notListedEverywhere(status: Int) async throws {
        let body = try Fixtures.bytes("bithumb/error_5500_unlisted.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: status, headers: [], body: body, url: request.url)
        }
        let market = Market(base: "NOPE", quote: "KRW")
        for (name, call) in Self.singleMarketCalls {
            let error = await #expect(throws: AggError.self, "\(name)") { try await call(bed.adapter(client), market) }
            #expect(
                error == .notListed(venue: "bithumb", market: market, code: "5500", message: "잘못된 코인명입니다."),
                "\(name)")
        }
        #expect(client.requests.count == 4)
    }

    @Test(
        "fields of the wrong shape become decoding errors naming the venue",
        arguments: [
            "{\"status\":\"0000\",\"data\":{\"closing_price\":{}}}",
            "{\"status\":\"0000\",\"data\":{\"closing_price\":\"1e999999\",\"date\":\"1\"}}",
        ])
    func brokenAnswers(body: String) async {
        let error = await bed.error(status: 200, body: body) {
            try await $0.quote(for: Market(base: "BTC", quote: "KRW"))
        }
        #expect(error?.kind == "decoding")
        #expect(error?.venue == "bithumb")
    }

    @Test("a decoding error names the JSON path that failed")
    func decodingPath() async {
        let client = ScriptedHTTPClient(
            body: "{\"status\":\"0000\",\"data\":{\"closing_price\":{},\"date\":\"1723104735027\"}}")
        await #expect(
            throws: AggError.decoding(
                venue: "bithumb", path: "$.data.closing_price", detail: "expected a decimal, found an object")
        ) {
            try await bed.adapter(client).quote(for: Market(base: "BTC", quote: "KRW"))
        }
    }
}
