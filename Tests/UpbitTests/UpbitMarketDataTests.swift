import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing
import Upbit

private let base = "https://api.upbit.com"
private let btc = Market(base: "BTC", quote: "KRW")
private let nope = Market(base: "NOPE", quote: "KRW")

private func adapter(_ client: any HTTPClient) -> UpbitAdapter {
    UpbitAdapter(environment: AdapterEnvironment(baseURL: base, http: client))
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}

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
            descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus])
    }
}

@Suite("Upbit candles")
struct UpbitCandlesTests {
    @Test("1-minute bars: oldest first, every field of the first and last exact")
    func minutes() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let candles = try await adapter(client).candles(for: btc, interval: .oneMinute, limit: 200)
        #expect(client.requests.map(\.url) == [base + "/v1/candles/minutes/1?market=KRW-BTC&count=200"])
        #expect(candles.count == 200)
        #expect(
            candles.first
                == Candle(
                    time: time("2024-08-08T04:53:00Z"), open: 80_913_000, high: 80_913_000, low: 80_894_000,
                    close: 80_904_000, volume: decimal("1.02065568")))
        #expect(
            candles.last
                == Candle(
                    time: time("2024-08-08T08:12:00Z"), open: 80_620_000, high: 80_660_000, low: 80_620_000,
                    close: 80_651_000, volume: decimal("8.90899359")))
        #expect(candles.last?.time.description == "2024-08-08T08:12:00.000Z")
        #expect(
            zip(candles, candles.dropFirst()).allSatisfy {
                $0.time.millisecondsSince1970 + 60_000 == $1.time.millisecondsSince1970
            })
    }

    @Test("day bars start at 00:00 UTC and end with today's, which agrees with the ticker")
    func days() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let upbit = adapter(client)
        let candles = try await upbit.candles(for: btc, interval: .oneDay, limit: 30)
        #expect(client.requests.map(\.url) == [base + "/v1/candles/days?market=KRW-BTC&count=30"])
        #expect(candles.count == 30)
        #expect(
            candles.first
                == Candle(
                    time: time("2024-07-10T00:00:00Z"), open: 87_385_000, high: 90_026_000, low: 85_650_000,
                    close: 89_716_000, volume: decimal("2102.48685785")))
        let today = try #require(candles.last)
        let quote = try await upbit.quote(for: btc)
        #expect(today.time == time("2024-08-08T00:00:00Z"))
        #expect([today.open, today.high, today.low, today.close] == [quote.open, quote.high, quote.low, quote.last])
        #expect(today.volume == decimal("2134.56812304"))
    }

    @Test(
        "the limit asks for that many bars and keeps the newest",
        arguments: [(1, 1), (3, 3), (200, 200)])
    func limit(limit: Int, expected: Int) async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let candles = try await adapter(client).candles(for: btc, interval: .oneMinute, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/v1/candles/minutes/1?market=KRW-BTC&count=\(limit)"])
        #expect(candles.count == expected)
        #expect(candles.last?.close == 80_651_000)
    }

    @Test("bar lengths Upbit lacks are refused without a request", arguments: [CandleInterval.sixHours, .twelveHours])
    func missingInterval(interval: CandleInterval) async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        await #expect(
            throws: AggError.usage(
                "upbit does not offer \(interval.rawValue) candles; its intervals: 1m, 3m, 5m, 10m, 30m, 1h, 24h")
        ) {
            try await adapter(client).candles(for: btc, interval: interval, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

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
            try await adapter(ScriptedHTTPClient(body: body)).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }
}

@Suite("Upbit trades")
struct UpbitTradesTests {
    @Test("newest first; the newest is the ticker's last trade, a BID, i.e. a buy; cost is exact")
    func trades() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let trades = try await adapter(client).trades(for: btc, limit: 500)
        #expect(client.requests.map(\.url) == [base + "/v1/trades/ticks?market=KRW-BTC&count=500"])
        #expect(trades.count == 50)
        #expect(
            trades.first
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_612), side: .buy, price: 80_651_000,
                    amount: decimal("0.00124"), cost: decimal("100007.24")))
        #expect(
            trades[1]
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_581), side: .sell, price: 80_650_000,
                    amount: decimal("0.34638236"), cost: decimal("27935737.334")))
        #expect(
            trades.last
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_720_192), side: .buy, price: 80_620_000,
                    amount: decimal("0.0118"), cost: 951_316))
        #expect(trades.filter { $0.side == .sell }.count == 27)
        #expect(zip(trades, trades.dropFirst()).allSatisfy { $0.time >= $1.time })
        #expect(trades.allSatisfy { $0.cost == $0.price * $0.amount })
    }

    @Test("the limit is the count asked for", arguments: [1, 2, 50])
    func limit(limit: Int) async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let trades = try await adapter(client).trades(for: btc, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/v1/trades/ticks?market=KRW-BTC&count=\(limit)"])
        #expect(trades.count == limit)
    }

    @Test(
        "ask_bid maps ASK to a sell and BID to a buy; anything else is a decoding error",
        arguments: [("ASK", TradeSide.sell), ("BID", .buy), ("ask", nil), ("", nil)])
    func sides(text: String, side: TradeSide?) async {
        let body = #"[{"timestamp":1723104873000,"trade_price":80630000.0,"trade_volume":0.0021,"ask_bid":"\#(text)"}]"#
        do {
            let trades = try await adapter(ScriptedHTTPClient(body: body)).trades(for: btc, limit: 1)
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
    @Test("units split into bids highest first and asks lowest first, 30 a side")
    func book() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let book = try await adapter(client).orderBook(for: btc, depth: 30)
        #expect(client.requests.map(\.url) == [base + "/v1/orderbook?markets=KRW-BTC&count=30"])
        #expect(book.exchange == "upbit")
        #expect(book.market == btc)
        #expect(book.timestamp == Timestamp(millisecondsSince1970: 1_723_104_736_112))
        #expect(
            book.bids.prefix(3) == [
                BookLevel(price: 80_650_000, amount: decimal("0.0412")),
                BookLevel(price: 80_649_000, amount: decimal("1.40796254")),
                BookLevel(price: 80_648_000, amount: decimal("0.12499432")),
            ])
        #expect(
            book.asks.prefix(3) == [
                BookLevel(price: 80_651_000, amount: decimal("0.0153")),
                BookLevel(price: 80_652_000, amount: decimal("0.40076801")),
                BookLevel(price: 80_653_000, amount: decimal("0.27055188")),
            ])
        #expect(book.bids[14] == BookLevel(price: 80_629_000, amount: decimal("1.11057174")))
        #expect(book.asks[14] == BookLevel(price: 80_675_000, amount: decimal("0.10134483")))
        #expect(book.bids.last == BookLevel(price: 80_601_000, amount: decimal("0.92718231")))
        #expect(book.asks.last == BookLevel(price: 80_701_000, amount: decimal("1.23576818")))
        #expect(book.bids.count == 30 && book.asks.count == 30)
        #expect(zip(book.bids, book.bids.dropFirst()).allSatisfy { $0.price > $1.price })
        #expect(zip(book.asks, book.asks.dropFirst()).allSatisfy { $0.price < $1.price })
    }

    @Test("depth is asked for as count, and trims both sides to the best levels", arguments: [1, 2, 10, 15, 16])
    func depth(depth: Int) async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let book = try await adapter(client).orderBook(for: btc, depth: depth)
        #expect(client.requests.map(\.url) == [base + "/v1/orderbook?markets=KRW-BTC&count=\(depth)"])
        #expect(book.bids.count == depth)
        #expect(book.asks.count == depth)
        #expect(book.bids.first?.price == 80_650_000)
        #expect(book.asks.first?.price == 80_651_000)
    }

    @Test("an answer without the market asked for is a decoding error")
    func otherMarket() async {
        let client = ScriptedHTTPClient(body: #"[{"market":"KRW-ETH","orderbook_units":[]}]"#)
        await #expect(
            throws: AggError.decoding(venue: "upbit", path: "$", detail: "no order book for KRW-BTC in the answer")
        ) {
            try await adapter(client).orderBook(for: btc, depth: 5)
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

    @Test("an unknown market is not listed, with Upbit's 404 and message verbatim", arguments: calls)
    func unknownMarket(call: String) async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        await #expect(
            throws: AggError.notListed(venue: "upbit", market: nope, code: "404", message: "Code not found")
        ) {
            try await Self.call(call, adapter(client), nope)
        }
        #expect(client.requests.count == 1)
    }

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
                try await Self.call(call, adapter(client), btc)
            }
        }
    }
}
