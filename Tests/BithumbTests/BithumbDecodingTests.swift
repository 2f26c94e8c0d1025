import AggCore
import AggJSON
import AggTestKit
import Bithumb
import Foundation
import Testing

private let base = "https://api.bithumb.com"

private func adapter(_ client: any HTTPClient) -> BithumbAdapter {
    BithumbAdapter(environment: AdapterEnvironment(baseURL: base, http: client))
}

private func recorded() throws -> BithumbAdapter {
    adapter(try Fixtures.client("bithumb", baseURL: base))
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}

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
    @Test("the single-coin ticker maps every field exactly")
    func singleTicker() async throws {
        let quote = try await recorded().quote(for: Market(base: "BTC", quote: "KRW"))
        #expect(
            quote
                == Quote(
                    exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"), last: 80_630_000, open: 79_934_000,
                    high: 81_500_000, low: 77_734_000, previousClose: 79_999_000, change: -435_000,
                    changePercent: decimal("-0.54"), changeBasis: .rolling24h, baseVolume: decimal("1368.01423432"),
                    quoteVolume: decimal("109282011238.50126"),
                    timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_027)))
        #expect(quote.quoteVolume?.description == "109282011238.50126")
        #expect(quote.timestamp?.description == "2024-08-08T08:12:15.027Z")
    }

    @Test("a BTC-quoted ticker keeps trailing-zero prices exact")
    func btcQuoted() async throws {
        let quote = try await recorded().quote(for: Market(base: "ETH", quote: "BTC"))
        #expect(quote.last == decimal("0.04224"))
        #expect(quote.last.description == "0.04224")
        #expect(quote.change == decimal("-0.00007"))
    }

    @Test("ALL_KRW decodes every coin with the sibling date")
    func allTickers() async throws {
        let quotes = try await recorded().allQuotes(quotedIn: "KRW")
        #expect(quotes.count == 480)
        #expect(Set(quotes.map(\.market.quote)) == ["KRW"])
        #expect(quotes.allSatisfy { $0.timestamp == Timestamp(millisecondsSince1970: 1_723_104_735_027) })
        let btc = try #require(quotes.first { $0.market.base == "BTC" })
        let single = try await recorded().quote(for: Market(base: "BTC", quote: "KRW"))
        #expect(btc == single)
        let shib = try #require(quotes.first { $0.market.base == "SHIB" })
        #expect(shib.last == decimal("0.01897"))
        #expect(shib.changePercent == decimal("-1.25"))
        #expect(quotes.contains { $0.market.base == "1INCH" })
    }

    /// Recorded ALL answers sometimes lack `data.date`; the tickers are still good, only the time
    /// is unknown. (The fixture is sample data cut from ticker_ALL_KRW.json, without the date.)
    @Test("an ALL answer without data.date gives every coin, with no timestamp")
    func allWithoutDate() async throws {
        let body = String(decoding: try Fixtures.bytes("bithumb/ticker_ALL_KRW_nodate.json"), as: UTF8.self)
        let quotes = try await adapter(ScriptedHTTPClient(body: body)).allQuotes(quotedIn: "KRW")
        #expect(quotes.map(\.market.base).sorted() == ["BTC", "ETH", "XRP"])
        #expect(quotes.allSatisfy { $0.timestamp == nil })
        let btc = try #require(quotes.first { $0.market.base == "BTC" })
        var dated = try await recorded().quote(for: Market(base: "BTC", quote: "KRW"))
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
            try await adapter(ScriptedHTTPClient(body: body)).allQuotes(quotedIn: "KRW")
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
            try await adapter(ScriptedHTTPClient(body: body)).quote(for: Market(base: "BTC", quote: "KRW"))
        }
    }

    @Test("several coins share one ALL request; one coin uses the single endpoint")
    func batching() async throws {
        let routes = try Fixtures.client("bithumb", baseURL: base)
        let client = ScriptedHTTPClient { request in
            let path = String(request.url.dropFirst(base.count))
            guard let answer = try routes.routes.answer(path: path, query: "") else {
                throw TransportError.invalidURL(request.url)
            }
            return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body, url: request.url)
        }
        let markets = ["BTC", "ETH", "XRP", "NOPE"].map { Market(base: $0, quote: "KRW") }
        let results = await adapter(client).quotes(for: markets)
        #expect(client.requests.map(\.url) == [base + "/public/ticker/ALL_KRW"])
        #expect(try results[markets[2]]?.get().last == decimal("790.4"))
        guard case .failure(let error)? = results[markets[3]] else {
            Issue.record("NOPE should fail")
            return
        }
        #expect(error == .notListed(venue: "bithumb", market: markets[3], code: "", message: ""))

        let single = await adapter(client).quotes(for: [markets[0]])
        #expect(client.requests.last?.url == base + "/public/ticker/BTC_KRW")
        #expect(try single[markets[0]]?.get().last == 80_630_000)
    }

    @Test("candles put close after high and low, oldest first")
    func candles() async throws {
        let candles = try await recorded().candles(
            for: Market(base: "BTC", quote: "KRW"), interval: .oneMinute, limit: 3)
        #expect(candles.count == 3)
        let last = try #require(candles.last)
        #expect(
            last
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_014_780_000), open: 79_312_000, high: 79_351_000,
                    low: 79_298_000, close: 79_335_000, volume: decimal("1.53240152")))
        #expect(last.time.description == "2024-08-07T07:13:00.000Z")
        #expect(candles[0].time < candles[1].time)
    }

    @Test("trades convert KST wall-clock to UTC and bid/ask to buy/sell, newest first")
    func trades() async throws {
        let trades = try await recorded().trades(for: Market(base: "BTC", quote: "KRW"), limit: 5)
        #expect(trades.count == 5)
        #expect(
            trades[0]
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_873_000), side: .sell, price: 80_630_000,
                    amount: decimal("0.0021"), cost: 169_323))
        #expect(trades[0].time.description == "2024-08-08T08:14:33.000Z")
        #expect(zip(trades, trades.dropFirst()).allSatisfy { $0.time >= $1.time })
    }

    @Test("order book levels in order, trimmed to the depth")
    func orderBook() async throws {
        let book = try await recorded().orderBook(for: Market(base: "BTC", quote: "KRW"), depth: 5)
        #expect(book.bids.count == 5 && book.asks.count == 5)
        #expect(book.bids[0] == BookLevel(price: 80_629_000, amount: decimal("0.0123")))
        #expect(book.asks[0] == BookLevel(price: 80_630_000, amount: decimal("0.0456")))
        #expect(book.bids[1].price < book.bids[0].price)
        #expect(book.asks[1].price > book.asks[0].price)
        #expect(book.timestamp == Timestamp(millisecondsSince1970: 1_723_104_736_112))
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
            try await adapter(client).quote(for: Market(base: "NOPE", quote: "KRW"))
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
            let error = await #expect(throws: AggError.self, "\(name)") { try await call(adapter(client), market) }
            #expect(
                error == .notListed(venue: "bithumb", market: market, code: "5500", message: "잘못된 코인명입니다."),
                "\(name)")
        }
        #expect(client.requests.count == 4)
    }

    @Test("5500 counts as not listed; 5600 does not")
    func notListed() {
        #expect(BithumbAdapter.descriptor.meansNotListed(.venue(venue: "bithumb", code: "5500", message: "x")))
        #expect(!BithumbAdapter.descriptor.meansNotListed(.venue(venue: "bithumb", code: "5600", message: "x")))
    }

    @Test(
        "fields of the wrong shape become decoding errors naming the venue",
        arguments: [
            "{\"status\":\"0000\",\"data\":{\"closing_price\":{}}}",
            "{\"status\":\"0000\",\"data\":{\"closing_price\":\"1e999999\",\"date\":\"1\"}}",
        ])
    func brokenAnswers(body: String) async {
        let client = ScriptedHTTPClient(status: 200, body: body)
        do {
            _ = try await adapter(client).quote(for: Market(base: "BTC", quote: "KRW"))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == "decoding")
            #expect(error.venue == "bithumb")
        }
    }

    @Test("a decoding error names the JSON path that failed")
    func decodingPath() async {
        let client = ScriptedHTTPClient(
            body: "{\"status\":\"0000\",\"data\":{\"closing_price\":{},\"date\":\"1723104735027\"}}")
        await #expect(
            throws: AggError.decoding(
                venue: "bithumb", path: "$.data.closing_price", detail: "expected a decimal, found an object")
        ) {
            try await adapter(client).quote(for: Market(base: "BTC", quote: "KRW"))
        }
    }
}

@Suite("Bithumb market list")
struct BithumbMarketListTests {
    @Test("ALL_BTC's 5500 (as since 2023) leaves the KRW listings, with their prices, and one failure")
    func partial() async throws {
        let list = await (try recorded()).marketList(quotedIn: nil)
        #expect(list.listings.count == 480)
        #expect(Set(list.listings.map(\.market.quote)) == ["KRW"])
        let eth = try #require(list.listings.first { $0.market.base == "ETH" })
        #expect(eth.venueSymbol == "ETH_KRW")
        #expect(eth.last == 3_406_000)
        #expect(
            list.failures == [
                MarketList.Failure(
                    quoteCurrency: "BTC",
                    error: .venue(venue: "bithumb", code: "5500", message: "입력값을 확인해 주세요."))
            ])
        await #expect(throws: AggError.venue(venue: "bithumb", code: "5500", message: "입력값을 확인해 주세요.")) {
            try await recorded().markets()
        }
    }

    @Test("one currency asks for that currency's list only; one Bithumb does not serve asks nothing")
    func oneCurrency() async throws {
        let client = try Fixtures.recordingClient("bithumb", baseURL: base)
        let krw = await adapter(client).marketList(quotedIn: "KRW")
        #expect(krw.listings.count == 480 && krw.failures.isEmpty)
        let usdt = await adapter(client).marketList(quotedIn: "USDT")
        #expect(usdt.listings.isEmpty && usdt.failures.isEmpty)
        #expect(client.requests.map(\.url) == [base + "/public/ticker/ALL_KRW"])
    }
}
