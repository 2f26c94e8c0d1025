import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Upbit

// What Upbit answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/upbit/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(UpbitAdapter.self)
private let base = bed.baseURL
private let btc = Market(base: "BTC", quote: "KRW")

private func time(_ iso: String) -> Timestamp {
    Timestamp(millisecondsSince1970: Int64((ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970 ?? 0) * 1000))
}

@Suite("Upbit market data router")
struct UpbitMarketDataRouterTests {
    @Test(
        "candles, trades and order book URLs",
        arguments: [
            (
                APIRouter.candles(btc, interval: .oneMinute, count: 200),
                "/v1/candles/minutes/1?market=KRW-BTC&count=200"
            ),
            (.candles(btc, interval: .threeMinutes, count: 5), "/v1/candles/minutes/3?market=KRW-BTC&count=5"),
            (.candles(btc, interval: .fiveMinutes, count: 5), "/v1/candles/minutes/5?market=KRW-BTC&count=5"),
            (.candles(btc, interval: .tenMinutes, count: 5), "/v1/candles/minutes/10?market=KRW-BTC&count=5"),
            (.candles(btc, interval: .thirtyMinutes, count: 5), "/v1/candles/minutes/30?market=KRW-BTC&count=5"),
            (.candles(btc, interval: .oneHour, count: 24), "/v1/candles/minutes/60?market=KRW-BTC&count=24"),
            (.candles(btc, interval: .oneDay, count: 30), "/v1/candles/days?market=KRW-BTC&count=30"),
            (
                .candles(Market(base: "ETH", quote: "BTC"), interval: .oneMinute, count: 1),
                "/v1/candles/minutes/1?market=BTC-ETH&count=1"
            ),
            (.trades(btc, count: 500), "/v1/trades/ticks?market=KRW-BTC&count=500"),
            (.orderBook(btc, count: 30), "/v1/orderbook?markets=KRW-BTC&count=30"),
            (.orderBook(Market(base: "ETH", quote: "BTC"), count: 5), "/v1/orderbook?markets=BTC-ETH&count=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/upbit") == "http://127.0.0.1:8080/upbit" + path)
    }

    @Test("Upbit offers every interval but 6h and 12h, and the descriptor says so")
    func intervals() {
        #expect(
            APIRouter.candleIntervals == [
                .oneMinute, .threeMinutes, .fiveMinutes, .tenMinutes, .thirtyMinutes, .oneHour, .oneDay,
            ])
        let descriptor = UpbitAdapter.descriptor
        #expect(
            descriptor.limits
                == FetchLimits(candles: 200, trades: 500, bookDepth: 30, candleIntervals: APIRouter.candleIntervals))
        #expect(
            descriptor.capabilities
                == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream, .events])
    }
}

@Suite("Upbit candles")
struct UpbitCandlesTests {
    @Test(
        "a candle time that is not YYYY-MM-DDTHH:MM:SS is a decoding error at its path",
        arguments: ["2024-08-08 08:12:00", "2024-08-08T08:12:00Z", "2024-13-08T08:12:00", "2024-08-08T08:12", "x"])
    func badTime(text: String) async {
        let body = """
            [{"candle_date_time_utc":"\(text)","opening_price":1.0,"high_price":1.0,"low_price":1.0,\
            "trade_price":1.0,"candle_acc_trade_volume":1.0}]
            """
        await #expect(
            throws: AggError.decoding(
                venue: "upbit", path: "$[0].candle_date_time_utc", detail: "expected 'YYYY-MM-DDTHH:MM:SS' (UTC)")
        ) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }
}

@Suite("Upbit trades")
struct UpbitTradesTests {
    @Test(
        "ask_bid maps ASK to a sell and BID to a buy; anything else is a decoding error",
        arguments: [("ASK", TradeSide.sell), ("BID", .buy), ("ask", nil), ("", nil)])
    func sides(text: String, side: TradeSide?) async {
        let body = #"[{"timestamp":1723104873000,"trade_price":80630000.0,"trade_volume":0.0021,"ask_bid":"\#(text)"}]"#
        do {
            let trades = try await bed.adapter(ScriptedHTTPClient(body: body)).trades(for: btc, limit: 1)
            #expect(trades.map(\.side) == [side].compactMap { $0 })
            #expect(trades.first?.cost == 169_323)
        } catch {
            #expect(side == nil)
            #expect(error == .decoding(venue: "upbit", path: "$[0].ask_bid", detail: "unknown ask_bid '\(text)'"))
        }
    }
}

@Suite("Upbit order book")
struct UpbitOrderBookTests {
    @Test("an answer without the market asked for is a decoding error")
    func otherMarket() async {
        let client = ScriptedHTTPClient(body: #"[{"market":"KRW-ETH","orderbook_units":[]}]"#)
        await #expect(
            throws: AggError.decoding(venue: "upbit", path: "$", detail: "no order book for KRW-BTC in the answer")
        ) {
            try await bed.adapter(client).orderBook(for: btc, depth: 5)
        }
    }
}

@Suite("Upbit market data errors")
struct UpbitMarketDataErrorTests {
    /// Each market-data call for `market`, as a closure over a fresh adapter.
    static func call(_ name: String, _ upbit: UpbitAdapter, _ market: Market) async throws(AggError) {
        switch name {
        case "candles": _ = try await upbit.candles(for: market, interval: .oneMinute, limit: 5)
        case "days": _ = try await upbit.candles(for: market, interval: .oneDay, limit: 5)
        case "trades": _ = try await upbit.trades(for: market, limit: 5)
        default: _ = try await upbit.orderBook(for: market, depth: 5)
        }
    }

    static let calls = ["candles", "days", "trades", "book"]

    @Test(
        "error envelopes become venue and rate-limit errors",
        arguments: [
            (
                "upbit/error_400_invalid_parameter.json", 400,
                AggError.venue(venue: "upbit", code: "invalid_parameter", message: "markets parameter is required")
            ),
            ("upbit/error_429_too_many_requests.json", 429, .rateLimited(venue: "upbit", retryAfterSeconds: nil)),
        ])
    func envelopes(file: String, status: Int, expected: AggError) async throws {
        let body = try Fixtures.bytes(file)
        for call in Self.calls {
            let client = ScriptedHTTPClient { request in
                HTTPResponse(status: status, headers: [], body: body, url: request.url)
            }
            await #expect(throws: expected) {
                try await Self.call(call, bed.adapter(client), btc)
            }
        }
    }
}
