import AggCore
import AggJSON
import AggTestKit
import Binance
import Foundation
import Testing

private let base = "https://api.binance.com"
private let btc = Market(base: "BTC", quote: "USDT")
private let nope = Market(base: "NOPE", quote: "USDT")

private func adapter(_ client: any HTTPClient) -> BinanceAdapter {
    BinanceAdapter(environment: AdapterEnvironment(baseURL: base, http: client))
}

private func recorded() throws -> (BinanceAdapter, ScriptedHTTPClient) {
    let client = try Fixtures.recordingClient("binance", baseURL: base)
    return (adapter(client), client)
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}

private func ms(_ value: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: value)
}

@Suite("Binance market data router and descriptor")
struct BinanceMarketDataRouterTests {
    @Test(
        "klines, trades, depth and all-tickers URLs",
        arguments: [
            (
                APIRouter.klines(btc, interval: .oneMinute, limit: 60),
                "/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=60"
            ),
            (.klines(btc, interval: .threeMinutes, limit: 5), "/api/v3/klines?symbol=BTCUSDT&interval=3m&limit=5"),
            (.klines(btc, interval: .fiveMinutes, limit: 5), "/api/v3/klines?symbol=BTCUSDT&interval=5m&limit=5"),
            (.klines(btc, interval: .thirtyMinutes, limit: 5), "/api/v3/klines?symbol=BTCUSDT&interval=30m&limit=5"),
            (.klines(btc, interval: .oneHour, limit: 24), "/api/v3/klines?symbol=BTCUSDT&interval=1h&limit=24"),
            (.klines(btc, interval: .sixHours, limit: 4), "/api/v3/klines?symbol=BTCUSDT&interval=6h&limit=4"),
            (.klines(btc, interval: .twelveHours, limit: 2), "/api/v3/klines?symbol=BTCUSDT&interval=12h&limit=2"),
            (.klines(btc, interval: .oneDay, limit: 30), "/api/v3/klines?symbol=BTCUSDT&interval=1d&limit=30"),
            (.trades(Market(base: "ETH", quote: "BTC"), limit: 1000), "/api/v3/trades?symbol=ETHBTC&limit=1000"),
            (.depth(btc, limit: 10), "/api/v3/depth?symbol=BTCUSDT&limit=10"),
            (.allTickers24h, "/api/v3/ticker/24hr"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
    }

    @Test("the descriptor declares every capability with Binance's limits and intervals (no 10m bars)")
    func descriptor() {
        let descriptor = BinanceAdapter.descriptor
        #expect(descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook])
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 1000, trades: 1000, bookDepth: 5000,
                    candleIntervals: [
                        .oneMinute, .threeMinutes, .fiveMinutes, .thirtyMinutes, .oneHour, .sixHours, .twelveHours,
                        .oneDay,
                    ]))
    }

    @Test(
        "AEUR-quoted symbols are not read as EUR markets; ADAEUR still is",
        arguments: [
            ("BTCAEUR", nil), ("ETHAEUR", nil), ("USDTAEUR", nil), ("ADAEUR", Market(base: "ADA", quote: "EUR")),
        ])
    func aeur(symbol: String, market: Market?) {
        #expect(APIRouter.market(fromVenueSymbol: symbol) == market)
    }
}

@Suite("Binance candles")
struct BinanceCandlesTests {
    @Test("1-minute bars from rows of ints and strings: oldest first, every field exact")
    func minutes() async throws {
        let (binance, client) = try recorded()
        let candles = try await binance.candles(for: btc, interval: .oneMinute, limit: 500)
        #expect(client.requests.map(\.url) == [base + "/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=500"])
        #expect(candles.count == 500)
        #expect(
            candles.first
                == Candle(
                    time: ms(1_723_074_780_000), open: decimal("58536.05"), high: decimal("58544.87"),
                    low: decimal("58530.11"), close: decimal("58533.82"), volume: decimal("22.87889")))
        #expect(
            candles.last
                == Candle(
                    time: ms(1_723_104_720_000), open: decimal("58444.41"), high: decimal("58455.52"),
                    low: decimal("58396.25"), close: decimal("58412.07"), volume: decimal("31.39526")))
        #expect(
            zip(candles, candles.dropFirst()).allSatisfy {
                $0.time.millisecondsSince1970 + 60_000 == $1.time.millisecondsSince1970 && $0.close == $1.open
            })
    }

    @Test("the current bar closes at the ticker's last price; today's day bar agrees")
    func agreesWithTicker() async throws {
        let (binance, _) = try recorded()
        let quote = try await binance.quote(for: btc)
        let minute = try #require(try await binance.candles(for: btc, interval: .oneMinute, limit: 1).last)
        let today = try #require(try await binance.candles(for: btc, interval: .oneDay, limit: 30).last)
        #expect(minute.close == quote.last)
        #expect(today.time.description == "2024-08-08T00:00:00.000Z")
        #expect(today.close == quote.last)
        #expect(today.low >= (quote.low ?? 0) && today.high <= (quote.high ?? 0))
    }

    @Test("the limit is asked for and the newest bars kept", arguments: [1, 3, 60, 500])
    func limit(limit: Int) async throws {
        let (binance, client) = try recorded()
        let candles = try await binance.candles(for: btc, interval: .oneMinute, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=\(limit)"])
        #expect(candles.count == limit)
        #expect(candles.last?.close == decimal("58412.07"))
    }

    @Test("10-minute bars, which Binance lacks, are refused without a request")
    func missingInterval() async throws {
        let (binance, client) = try recorded()
        await #expect(
            throws: AggError.usage(
                "binance does not offer 10m candles; its intervals: 1m, 3m, 5m, 30m, 1h, 6h, 12h, 24h")
        ) {
            try await binance.candles(for: btc, interval: .tenMinutes, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

    @Test(
        "rows not in Binance's shape are decoding errors at their path",
        arguments: [
            (#"[[1723104720000,"1","2","0.5"]]"#, "$[0][4]", "expected a decimal, found nothing"),
            (#"[["x","1","2","0.5","1","9"]]"#, "$[0][0]", "'x' is not a whole number in range"),
            (#"[[1723104720000,"1","2","0.5","1",true]]"#, "$[0][5]", "expected a decimal, found a boolean"),
            (#"{"code":0}"#, "$", "expected an array, found an object"),
        ])
    func malformed(body: String, path: String, detail: String) async {
        await #expect(throws: AggError.decoding(venue: "binance", path: path, detail: detail)) {
            try await adapter(ScriptedHTTPClient(body: body)).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }
}

@Suite("Binance trades")
struct BinanceTradesTests {
    @Test("newest first; the newest is the ticker's last trade, a taker buying (isBuyerMaker false)")
    func recent() async throws {
        let (binance, client) = try recorded()
        let trades = try await binance.trades(for: btc, limit: 500)
        #expect(client.requests.map(\.url) == [base + "/api/v3/trades?symbol=BTCUSDT&limit=500"])
        #expect(trades.count == 500)
        #expect(
            trades.first
                == Trade(
                    time: ms(1_723_104_734_987), side: .buy, price: decimal("58412.07"), amount: decimal("0.00342"),
                    cost: decimal("199.7692794")))
        #expect(
            trades.last
                == Trade(
                    time: ms(1_723_104_509_860), side: .sell, price: decimal("58411.78"), amount: decimal("1.69828"),
                    cost: decimal("99199.5577384")))
        #expect(zip(trades, trades.dropFirst()).allSatisfy { $0.time >= $1.time })
        let quote = try await binance.quote(for: btc)
        #expect(trades.first?.price == quote.last)
        #expect(trades.first?.time == quote.timestamp)
    }

    @Test("isBuyerMaker true is a sell; the cost is computed when quoteQty is missing")
    func sides() async throws {
        let body = """
            [{"id":1,"price":"2.50000000","qty":"4.00000000","time":1,"isBuyerMaker":true,"isBestMatch":true},\
            {"id":2,"price":"2.60000000","qty":"1.5","quoteQty":"3.90000000","time":2,"isBuyerMaker":false}]
            """
        let trades = try await adapter(ScriptedHTTPClient(body: body)).trades(for: btc, limit: 10)
        #expect(
            trades == [
                Trade(time: ms(2), side: .buy, price: decimal("2.6"), amount: decimal("1.5"), cost: decimal("3.9")),
                Trade(time: ms(1), side: .sell, price: decimal("2.5"), amount: 4, cost: 10),
            ])
    }

    @Test("the limit is asked for, within Binance's 1000", arguments: [(1, 1), (20, 20), (5000, 1000)])
    func limit(limit: Int, asked: Int) async throws {
        let (binance, client) = try recorded()
        let trades = try await binance.trades(for: btc, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/api/v3/trades?symbol=BTCUSDT&limit=\(asked)"])
        #expect(trades.count == min(limit, 500))
    }

    @Test("a trade without isBuyerMaker is a decoding error at its path")
    func missingSide() async {
        await #expect(
            throws: AggError.decoding(
                venue: "binance", path: "$[0].isBuyerMaker", detail: "expected a boolean, found nothing")
        ) {
            try await adapter(ScriptedHTTPClient(body: #"[{"price":"1","qty":"1","time":1}]"#)).trades(
                for: btc, limit: 1)
        }
    }
}

@Suite("Binance order book")
struct BinanceOrderBookTests {
    @Test("bids highest first and asks lowest first, the best of each the ticker's, cut to the depth")
    func book() async throws {
        let (binance, client) = try recorded()
        let book = try await binance.orderBook(for: btc, depth: 2)
        #expect(client.requests.map(\.url) == [base + "/api/v3/depth?symbol=BTCUSDT&limit=2"])
        #expect(
            book
                == OrderBook(
                    exchange: "binance", market: btc, timestamp: nil,
                    bids: [
                        BookLevel(price: decimal("58412.06"), amount: decimal("1.87341")),
                        BookLevel(price: decimal("58411.66"), amount: decimal("1.8903")),
                    ],
                    asks: [
                        BookLevel(price: decimal("58412.07"), amount: decimal("0.40512")),
                        BookLevel(price: decimal("58412.46"), amount: decimal("0.79772")),
                    ]))
    }

    @Test("the recorded book holds 100 levels a side, in order")
    func full() async throws {
        let (binance, _) = try recorded()
        let book = try await binance.orderBook(for: btc, depth: 100)
        #expect(book.bids.count == 100 && book.asks.count == 100)
        #expect(book.bids.last?.price == decimal("58390.14"))
        #expect(book.asks.last?.price == decimal("58433.88"))
        #expect(zip(book.bids, book.bids.dropFirst()).allSatisfy { $0.price > $1.price })
        #expect(zip(book.asks, book.asks.dropFirst()).allSatisfy { $0.price < $1.price })
    }
}

@Suite("Binance all tickers")
struct BinanceAllTickersTests {
    @Test("one request gives every USDT ticker; the one-symbol answers agree with it exactly")
    func usdt() async throws {
        let (binance, client) = try recorded()
        let quotes = try await binance.allQuotes(quotedIn: "USDT")
        #expect(client.requests.map(\.url) == [base + "/api/v3/ticker/24hr"])
        #expect(quotes.count == 707)
        #expect(quotes.allSatisfy { $0.market.quote == "USDT" && $0.exchange == "binance" })
        #expect(quotes.map(\.market) == quotes.map(\.market).sorted())
        for market in [btc, Market(base: "ETH", quote: "USDT")] {
            let single = try await binance.quote(for: market)
            #expect(quotes.first { $0.market == market } == single)
        }
        #expect(quotes.first { $0.market.base == "XRP" }?.last == decimal("0.5703"))
        #expect(quotes.first { $0.market.base == "PEPE" }?.last == decimal("0.00000753"))
    }

    /// How many markets of each quote currency the sample answer holds, without delisted symbols
    /// (count 0) or AEUR ones.
    static let counts = ["USDC": 175, "FDUSD": 175, "BTC": 375, "ETH": 166, "BNB": 131, "EUR": 10]

    @Test("each quote currency, without delisted symbols (count 0) or AEUR ones, from the one answer")
    func currencies() async throws {
        let (binance, _) = try recorded()
        for (currency, count) in Self.counts {
            let quotes = try await binance.allQuotes(quotedIn: currency)
            #expect(quotes.count == count, "\(currency)")
            #expect(quotes.allSatisfy { $0.market.quote == currency && $0.last > 0 })
            #expect(!quotes.contains { ["BTCA", "ETHA", "USDTA"].contains($0.market.base) })
        }
    }

    @Test("delisted symbols, still listed with the price of a trade long past, are left out")
    func delisted() async throws {
        let (binance, _) = try recorded()
        let btcQuotes = try await binance.allQuotes(quotedIn: "BTC")
        #expect(!btcQuotes.contains { $0.market.base == "BCC" })
        #expect(btcQuotes.contains { $0.market == Market(base: "ETH", quote: "BTC") })
    }

    @Test("asking for several currencies in a row costs one request")
    func oneRequest() async throws {
        let (binance, client) = try recorded()
        _ = try await binance.allQuotes(quotedIn: "USDT")
        _ = try await binance.allQuotes(quotedIn: "BTC")
        _ = try await binance.allQuotes(quotedIn: "EUR")
        #expect(client.requests.count == 1)
        // Another adapter asks anew.
        _ = try await adapter(client).allQuotes(quotedIn: "USDT")
        #expect(client.requests.count == 2)
    }

    @Test("a quote currency agg does not ask Binance for fails without a request")
    func unserved() async throws {
        let (binance, client) = try recorded()
        await #expect(
            throws: AggError.notListed(
                venue: "binance", market: Market(base: "ALL", quote: "TRY"), code: "",
                message: "agg asks Binance only for markets in USDT, USDC, FDUSD, BTC, ETH, BNB, EUR")
        ) {
            try await binance.allQuotes(quotedIn: "TRY")
        }
        #expect(client.requests.isEmpty)
    }

    @Test("a malformed ticker in the list costs only itself, reported at its path")
    func malformed() async throws {
        let body = #"[{"symbol":"BTCUSDT","lastPrice":"1","count":5},{"symbol":"ETHUSDT","lastPrice":"x","count":5}]"#
        let answer = try await adapter(ScriptedHTTPClient(body: body)).allQuotesAnswer(quotedIn: "USDT")
        #expect(answer.values.map(\.market) == [Market(base: "BTC", quote: "USDT")])
        #expect(
            answer.skipped == [
                SkippedEntry(
                    venue: "binance", entry: "ETHUSDT", market: Market(base: "ETH", quote: "USDT"),
                    path: "$[1].lastPrice", reason: "'x' is not a decimal number")
            ])
    }
}

@Suite("Binance market data errors and weight")
struct BinanceMarketDataErrorTests {
    @Test(
        "an unknown symbol is not listed on every endpoint, with -1121 verbatim",
        arguments: ["candles", "trades", "book"])
    func notListed(endpoint: String) async throws {
        let (binance, _) = try recorded()
        let expected = AggError.notListed(venue: "binance", market: nope, code: "-1121", message: "Invalid symbol.")
        await #expect(throws: expected) {
            switch endpoint {
            case "candles": _ = try await binance.candles(for: nope, interval: .oneMinute, limit: 1)
            case "trades": _ = try await binance.trades(for: nope, limit: 1)
            default: _ = try await binance.orderBook(for: nope, depth: 1)
            }
        }
    }

    @Test(
        "the bucket holds until the next minute only when the minute's weight leaves no room for the heaviest request",
        arguments: [
            ("82", "Thu, 08 Aug 2024 08:12:15 GMT", nil),
            ("5750", "Thu, 08 Aug 2024 08:12:15 GMT", nil),
            ("5751", "Thu, 08 Aug 2024 08:12:15 GMT", 45.0),
            ("6000", "Thu, 08 Aug 2024 08:12:59 GMT", 1.0),
            ("6000", "Thu, 08 Aug 2024 08:12:00 GMT", 60.0),
            ("5990", "", 60.0),
            ("x", "Thu, 08 Aug 2024 08:12:15 GMT", nil),
        ] as [(String, String, Double?)])
    func pause(used: String, date: String, expected: Double?) {
        var headers = [HTTPHeader(name: "x-mbx-used-weight-1m", value: used)]
        if !date.isEmpty { headers.append(HTTPHeader(name: "Date", value: date)) }
        let response = HTTPResponse(status: 200, headers: headers, body: [], url: base)
        #expect(BinanceAdapter.descriptor.quotaHeader == .usedWeight)
        #expect(QuotaHeader.usedWeight.pause(after: response) == expected)
        #expect(QuotaHeader.usedWeight.pause(after: HTTPResponse(status: 200, headers: [], body: [], url: base)) == nil)
    }
}
