import AggCore
import AggJSON
import AggTestKit
import Coinbase
import Foundation
import Testing

private let base = "https://api.exchange.coinbase.com"
private let btc = Market(base: "BTC", quote: "USD")
private let nope = Market(base: "NOPE", quote: "USD")

private func adapter(_ client: any HTTPClient) -> CoinbaseAdapter {
    CoinbaseAdapter(environment: AdapterEnvironment(baseURL: base, http: client))
}

private func recorded() throws -> (CoinbaseAdapter, ScriptedHTTPClient) {
    let client = try Fixtures.recordingClient("coinbase", baseURL: base)
    return (adapter(client), client)
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}

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
        #expect(descriptor.capabilities == [.ticker, .markets, .candles, .trades, .orderBook])
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 300, trades: 1000, bookDepth: 1000,
                    candleIntervals: [.oneMinute, .fiveMinutes, .oneHour, .sixHours, .oneDay]))
    }
}

@Suite("Coinbase candles")
struct CoinbaseCandlesTests {
    @Test("rows [time, low, high, open, close, volume] newest first become OHLCV bars oldest first")
    func minutes() async throws {
        let (coinbase, client) = try recorded()
        let candles = try await coinbase.candles(for: btc, interval: .oneMinute, limit: 300)
        #expect(client.requests.map(\.url) == [base + "/products/BTC-USD/candles?granularity=60"])
        #expect(candles.count == 300)
        #expect(
            candles.first
                == Candle(
                    time: Timestamp(secondsSince1970: 1_723_086_780), open: decimal("58436.61"),
                    high: decimal("58440.36"), low: decimal("58425.15"), close: decimal("58433.31"),
                    volume: decimal("6.57626255")))
        #expect(
            candles.last
                == Candle(
                    time: Timestamp(secondsSince1970: 1_723_104_720), open: decimal("58419.65"),
                    high: decimal("58437.76"), low: decimal("58412.21"), close: decimal("58431.29"),
                    volume: decimal("6.50607712")))
        #expect(
            zip(candles, candles.dropFirst()).allSatisfy {
                $0.time.millisecondsSince1970 + 60_000 == $1.time.millisecondsSince1970 && $0.close == $1.open
            })
    }

    @Test("the current bar and today's day bar close at the ticker's price, inside the 24-hour range")
    func agreesWithTicker() async throws {
        let (coinbase, _) = try recorded()
        let quote = try await coinbase.quote(for: btc)
        let minute = try #require(try await coinbase.candles(for: btc, interval: .oneMinute, limit: 1).last)
        let days = try await coinbase.candles(for: btc, interval: .oneDay, limit: 300)
        let today = try #require(days.last)
        #expect(days.count == 300)
        #expect(days.first?.time.description == "2023-10-14T00:00:00.000Z")
        #expect(minute.close == quote.last && today.close == quote.last)
        #expect(today.time.description == "2024-08-08T00:00:00.000Z")
        #expect(today.low >= (quote.low ?? 0) && today.high <= (quote.high ?? 0))
    }

    @Test("Coinbase sends 300 bars whatever is asked: the newest `limit` are kept", arguments: [1, 5, 60, 300])
    func limit(limit: Int) async throws {
        let (coinbase, client) = try recorded()
        let candles = try await coinbase.candles(for: btc, interval: .oneMinute, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/products/BTC-USD/candles?granularity=60"])
        #expect(candles.count == limit)
        #expect(candles.last?.time == Timestamp(secondsSince1970: 1_723_104_720))
    }

    @Test(
        "bar lengths Coinbase lacks are refused without a request",
        arguments: [CandleInterval.threeMinutes, .tenMinutes, .thirtyMinutes, .twelveHours])
    func missingInterval(interval: CandleInterval) async throws {
        let (coinbase, client) = try recorded()
        await #expect(
            throws: AggError.usage(
                "coinbase does not offer \(interval.rawValue) candles; its intervals: 1m, 5m, 1h, 6h, 24h")
        ) {
            try await coinbase.candles(for: btc, interval: interval, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

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
            try await adapter(ScriptedHTTPClient(body: body)).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }

    @Test("Coinbase's own error (a granularity it refuses) keeps its message, the status as its code")
    func venueError() async {
        let client = ScriptedHTTPClient(status: 400, body: #"{"message":"Unsupported granularity"}"#)
        await #expect(throws: AggError.venue(venue: "coinbase", code: "400", message: "Unsupported granularity")) {
            try await adapter(client).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }
}

@Suite("Coinbase trades")
struct CoinbaseTradesTests {
    @Test("newest first; the maker side is turned into the taker's: the ticker's trade hit a bid, a sell")
    func recent() async throws {
        let (coinbase, client) = try recorded()
        let trades = try await coinbase.trades(for: btc, limit: 100)
        #expect(client.requests.map(\.url) == [base + "/products/BTC-USD/trades?limit=100"])
        #expect(trades.count == 100)
        let price = decimal("58431.29")
        let size = decimal("0.00134502")
        #expect(
            trades.first
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_874), side: .sell, price: price, amount: size,
                    cost: decimal("78.5912536758")))
        #expect(trades.first?.cost == price * size)
        #expect(
            trades[1]
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_412), side: .buy, price: decimal("58431.41"),
                    amount: decimal("1.40631173"), cost: decimal("58431.41") * decimal("1.40631173")))
        #expect(trades.last?.time.description == "2024-08-08T08:10:11.272Z")
        #expect(zip(trades, trades.dropFirst()).allSatisfy { $0.time >= $1.time })
        let quote = try await coinbase.quote(for: btc)
        #expect(trades.first?.price == quote.last && trades.first?.time == quote.timestamp)
    }

    @Test("the limit is asked for, within Coinbase's 1000", arguments: [(1, 1), (20, 20), (2000, 1000)])
    func limit(limit: Int, asked: Int) async throws {
        let (coinbase, client) = try recorded()
        let trades = try await coinbase.trades(for: btc, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/products/BTC-USD/trades?limit=\(asked)"])
        #expect(trades.count == min(limit, 100))
    }

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
            try await adapter(ScriptedHTTPClient(body: body)).trades(for: btc, limit: 1)
        }
    }
}

@Suite("Coinbase order book")
struct CoinbaseOrderBookTests {
    @Test("the level-2 book, best first, cut to the depth, its time exact; the order counts are dropped")
    func book() async throws {
        let (coinbase, client) = try recorded()
        let book = try await coinbase.orderBook(for: btc, depth: 2)
        #expect(client.requests.map(\.url) == [base + "/products/BTC-USD/book?level=2"])
        #expect(
            book
                == OrderBook(
                    exchange: "coinbase", market: btc, timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_021),
                    bids: [
                        BookLevel(price: decimal("58431.29"), amount: decimal("0.64317498")),
                        BookLevel(price: decimal("58431.21"), amount: decimal("0.45865129")),
                    ],
                    asks: [
                        BookLevel(price: decimal("58431.3"), amount: decimal("0.01523101")),
                        BookLevel(price: decimal("58431.34"), amount: decimal("2.62593931")),
                    ]))
        let quote = try await coinbase.quote(for: btc)
        #expect(book.bids.first?.price == quote.last)
    }

    @Test("the recorded book holds 100 levels a side, in order; a book without a time has none")
    func full() async throws {
        let (coinbase, _) = try recorded()
        let book = try await coinbase.orderBook(for: btc, depth: 1000)
        #expect(book.bids.count == 100 && book.asks.count == 100)
        #expect(zip(book.bids, book.bids.dropFirst()).allSatisfy { $0.price > $1.price })
        #expect(zip(book.asks, book.asks.dropFirst()).allSatisfy { $0.price < $1.price })
        let bare = try await adapter(
            ScriptedHTTPClient(body: #"{"bids":[["1","2",1]],"asks":[["3","4",2]],"sequence":1}"#)
        )
        .orderBook(for: btc, depth: 5)
        #expect(bare.timestamp == nil)
        #expect(bare.bids == [BookLevel(price: 1, amount: 2)] && bare.asks == [BookLevel(price: 3, amount: 4)])
    }
}

@Suite("Coinbase market data errors")
struct CoinbaseMarketDataErrorTests {
    @Test(
        "an unknown product is not listed on every endpoint, with Coinbase's message",
        arguments: ["candles", "trades", "book"])
    func notListed(endpoint: String) async throws {
        let (coinbase, _) = try recorded()
        await #expect(throws: AggError.notListed(venue: "coinbase", market: nope, code: "404", message: "NotFound")) {
            switch endpoint {
            case "candles": _ = try await coinbase.candles(for: nope, interval: .oneMinute, limit: 1)
            case "trades": _ = try await coinbase.trades(for: nope, limit: 1)
            default: _ = try await coinbase.orderBook(for: nope, depth: 1)
            }
        }
    }

    @Test("a market in a quote agg does not ask Coinbase for fails without a request")
    func unservedQuote() async throws {
        let (coinbase, client) = try recorded()
        let krw = Market(base: "BTC", quote: "KRW")
        await #expect(
            throws: AggError.notListed(
                venue: "coinbase", market: krw, code: "",
                message: "agg asks Coinbase Exchange only for markets in USD, USDT, USDC, EUR, BTC")
        ) {
            try await coinbase.trades(for: krw, limit: 1)
        }
        #expect(client.requests.isEmpty)
    }
}
