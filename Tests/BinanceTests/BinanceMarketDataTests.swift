import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Binance

// What Binance answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/binance/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(BinanceAdapter.self)
private let base = bed.baseURL
private let btc = Market(base: "BTC", quote: "USDT")

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
        #expect(descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .stream])
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
            try await bed.adapter(ScriptedHTTPClient(body: body)).candles(for: btc, interval: .oneMinute, limit: 1)
        }
    }
}

@Suite("Binance trades")
struct BinanceTradesTests {
    @Test("isBuyerMaker true is a sell; the cost is computed when quoteQty is missing")
    func sides() async throws {
        let body = """
            [{"id":1,"price":"2.50000000","qty":"4.00000000","time":1,"isBuyerMaker":true,"isBestMatch":true},\
            {"id":2,"price":"2.60000000","qty":"1.5","quoteQty":"3.90000000","time":2,"isBuyerMaker":false}]
            """
        let trades = try await bed.adapter(ScriptedHTTPClient(body: body)).trades(for: btc, limit: 10)
        #expect(
            trades == [
                Trade(time: ms(2), side: .buy, price: decimal("2.6"), amount: decimal("1.5"), cost: decimal("3.9")),
                Trade(time: ms(1), side: .sell, price: decimal("2.5"), amount: 4, cost: 10),
            ])
    }

    @Test("a trade without isBuyerMaker is a decoding error at its path")
    func missingSide() async {
        await #expect(
            throws: AggError.decoding(
                venue: "binance", path: "$[0].isBuyerMaker", detail: "expected a boolean, found nothing")
        ) {
            try await bed.adapter(ScriptedHTTPClient(body: #"[{"price":"1","qty":"1","time":1}]"#)).trades(
                for: btc, limit: 1)
        }
    }
}

@Suite("Binance all tickers")
struct BinanceAllTickersTests {
    /// How many markets of each quote currency the sample answer holds, without delisted symbols
    /// (count 0) or AEUR ones.
    static let counts = ["USDC": 175, "FDUSD": 175, "BTC": 375, "ETH": 166, "BNB": 131, "EUR": 10]

    @Test("asking for several currencies in a row costs one request")
    func oneRequest() async throws {
        let client = try bed.recorded()
        let binance = bed.adapter(client)
        _ = try await binance.allQuotes(quotedIn: "USDT")
        _ = try await binance.allQuotes(quotedIn: "BTC")
        _ = try await binance.allQuotes(quotedIn: "EUR")
        #expect(client.requests.count == 1)
        // Another adapter asks anew.
        _ = try await bed.adapter(client).allQuotes(quotedIn: "USDT")
        #expect(client.requests.count == 2)
    }

    @Test("a malformed ticker in the list costs only itself, reported at its path")
    func malformed() async throws {
        let body = #"[{"symbol":"BTCUSDT","lastPrice":"1","count":5},{"symbol":"ETHUSDT","lastPrice":"x","count":5}]"#
        let answer = try await bed.adapter(ScriptedHTTPClient(body: body)).allQuotesAnswer(quotedIn: "USDT")
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
