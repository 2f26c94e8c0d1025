import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Coinone
import Foundation
import Testing

private let bed = AdapterTestBed(CoinoneAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")
private let nope = bed.market("NOPE")

/// The BTC/KRW ticker of the sample data, every field.
private let btcQuote = Quote(
    exchange: "coinone", market: btc, last: 80_640_000, open: 79_980_000, high: 81_490_000, low: 77_750_000,
    change: 660_000, changePercent: decimal("0.8252"), changeBasis: .rolling24h, baseVolume: decimal("262.18439521"),
    quoteVolume: decimal("21034512874.2615"), timestamp: Timestamp(millisecondsSince1970: 1_723_104_734_981))

@Suite("Coinone router")
struct CoinoneRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker(btc), "/public/v2/ticker_new/KRW/BTC"),
            (.allTickers(quote: "KRW"), "/public/v2/ticker_new/KRW"),
            (.markets(quote: "KRW"), "/public/v2/markets/KRW"),
            (.orderBook(btc, size: 15), "/public/v2/orderbook/KRW/BTC?size=15"),
            (.trades(btc, size: 200), "/public/v2/trades/KRW/BTC?size=200"),
            (.chart(btc, interval: .oneMinute, size: 200), "/public/v2/chart/KRW/BTC?interval=1m&size=200"),
            (.chart(eth, interval: .oneHour, size: 5), "/public/v2/chart/KRW/ETH?interval=1h&size=5"),
            (.chart(eth, interval: .oneDay, size: 5), "/public/v2/chart/KRW/ETH?interval=1d&size=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/coinone") == "http://127.0.0.1:8080/coinone" + path)
    }

    @Test(
        "lower-case codes in answers map to unified markets; others map to nothing",
        arguments: [
            ("krw", "btc", Optional(btc)), ("KRW", "ETH", eth), ("krw", "1inch", Market(base: "1INCH", quote: "KRW")),
            ("usdt", "btc", nil), ("krw", "", nil), ("krw", "b-tc", nil), ("krw", "비트", nil),
        ])
    func markets(quote: String, target: String, market: Market?) {
        #expect(APIRouter.market(quote: quote, target: target) == market)
    }

    @Test("the descriptor declares what the adapter does, and Coinone's limits")
    func descriptor() {
        let descriptor = CoinoneAdapter.descriptor
        #expect(descriptor.id == "coinone")
        #expect(descriptor.country == "KR")
        #expect(descriptor.homeCurrency == "KRW")
        #expect(descriptor.quoteCurrencies == ["KRW"])
        #expect(
            descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus])
        #expect(descriptor.requestsPerSecond == 5)
        #expect(descriptor.changeBasis == .rolling24h)
        #expect(descriptor.notListedCodes == ["108"])
        #expect(descriptor.rateLimitCodes == ["4"])
        #expect(descriptor.defaultBaseURL == base)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 500, trades: 200, bookDepth: 16,
                    candleIntervals: [
                        .oneMinute, .threeMinutes, .fiveMinutes, .tenMinutes, .thirtyMinutes, .oneHour, .sixHours,
                        .oneDay,
                    ]))
    }
}

@Suite("Coinone tickers")
struct CoinoneTickerTests {
    @Test("one ticker: every field exact, the change derived from the 24-hour first price")
    func ticker() async throws {
        let client = try bed.recorded()
        let quote = try await bed.adapter(client).quote(for: btc)
        #expect(quote == btcQuote)
        #expect(quote.last.description == "80640000")
        #expect(quote.changePercent?.description == "0.8252")
        #expect(client.requests.map(\.url) == [base + "/public/v2/ticker_new/KRW/BTC"])
    }

    @Test("ETH: a second market, its own numbers")
    func ether() async throws {
        let quote = try await bed.adapter(try bed.recorded()).quote(for: eth)
        #expect(quote.last == 3_406_000)
        #expect(quote.open == 3_389_000)
        #expect(quote.change == 17000)
        #expect(quote.changePercent == decimal("0.5016"))
        #expect(quote.baseVolume == decimal("2431.25874563"))
    }

    @Test("all tickers: one request, every coin, BTC the same as on its own")
    func allTickers() async throws {
        let client = try bed.recorded()
        let quotes = try await bed.adapter(client).allQuotes(quotedIn: "KRW")
        #expect(client.requests.map(\.url) == [base + "/public/v2/ticker_new/KRW"])
        #expect(quotes.count == 220)
        #expect(Set(quotes.map(\.market)).count == 220)
        #expect(quotes.first == btcQuote)
        #expect(quotes.allSatisfy { $0.exchange == "coinone" && $0.market.quote == "KRW" && $0.last > 0 })
        #expect(quotes.contains { $0.market == Market(base: "1INCH", quote: "KRW") })
    }

    @Test("several markets share the all-tickers request; a coin missing from it is not listed")
    func batch() async throws {
        let client = try bed.recorded()
        let results = await bed.adapter(client).quotes(for: [btc, eth, nope, btc, Market(base: "BTC", quote: "USDT")])
        #expect(client.requests.map(\.url) == [base + "/public/v2/ticker_new/KRW"])
        #expect(try results[btc]?.get() == btcQuote)
        #expect(try results[eth]?.get().last == 3_406_000)
        #expect(results.count == 4)
        guard case .failure(let error)? = results[nope] else {
            Issue.record("expected NOPE to fail")
            return
        }
        #expect(error == .notListed(venue: "coinone", market: nope, code: "", message: ""))
        guard case .failure(let usdt)? = results[Market(base: "BTC", quote: "USDT")] else {
            Issue.record("expected BTC/USDT to fail")
            return
        }
        #expect(usdt.summaryNamingNoMarket == "not listed (agg asks Coinone only for markets in KRW)")
    }

    @Test("one market in a batch uses the single-ticker endpoint")
    func batchOfOne() async throws {
        let client = try bed.recorded()
        let results = await bed.adapter(client).quotes(for: [btc, btc])
        #expect(client.requests.map(\.url) == [base + "/public/v2/ticker_new/KRW/BTC"])
        #expect(try results[btc]?.get() == btcQuote)
    }

    @Test("the market list: upper-case codes, suspended markets left out")
    func markets() async throws {
        let client = try bed.recorded()
        let listings = try await bed.adapter(client).markets()
        #expect(client.requests.map(\.url) == [base + "/public/v2/markets/KRW"])
        #expect(listings.count == 219)
        #expect(listings.first == MarketListing(exchange: "coinone", market: btc, venueSymbol: "KRW/BTC"))
        #expect(!listings.contains { $0.market.base == "BLAST" })
    }
}

@Suite("Coinone market data")
struct CoinoneMarketDataTests {
    @Test("candles: oldest first, first and last bars exact, one minute apart")
    func candles() async throws {
        let client = try bed.recorded()
        let candles = try await bed.adapter(client).candles(for: btc, interval: .oneMinute, limit: 200)
        #expect(client.requests.map(\.url) == [base + "/public/v2/chart/KRW/BTC?interval=1m&size=200"])
        #expect(candles.count == 200)
        #expect(
            candles.first
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_092_780_000), open: 80_865_000, high: 80_870_000,
                    low: 80_848_000, close: 80_860_000, volume: decimal("1.96855715")))
        #expect(
            candles.last
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_104_720_000), open: 80_635_000, high: 80_645_000,
                    low: 80_630_000, close: 80_640_000, volume: decimal("1.01964443")))
        #expect(
            zip(candles, candles.dropFirst()).allSatisfy {
                $0.time.millisecondsSince1970 + 60_000 == $1.time.millisecondsSince1970
            })
    }

    @Test("a limit asks for that many bars and keeps the newest")
    func candleLimit() async throws {
        let client = try bed.recorded()
        let candles = try await bed.adapter(client).candles(for: btc, interval: .oneMinute, limit: 3)
        #expect(client.requests.map(\.url) == [base + "/public/v2/chart/KRW/BTC?interval=1m&size=3"])
        #expect(candles.map(\.time.millisecondsSince1970) == [1_723_104_600_000, 1_723_104_660_000, 1_723_104_720_000])
    }

    @Test("12-hour bars, which Coinone lacks, are refused without a request")
    func missingInterval() async throws {
        let client = try bed.recorded()
        await #expect(
            throws: AggError.usage(
                "coinone does not offer 12h candles; its intervals: 1m, 3m, 5m, 10m, 30m, 1h, 6h, 24h")
        ) {
            try await bed.adapter(client).candles(for: btc, interval: .twelveHours, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

    @Test("trades: newest first, is_seller_maker false a buy, cost exact")
    func trades() async throws {
        let client = try bed.recorded()
        let trades = try await bed.adapter(client).trades(for: btc, limit: 200)
        #expect(client.requests.map(\.url) == [base + "/public/v2/trades/KRW/BTC?size=200"])
        #expect(trades.count == 200)
        #expect(
            trades.first
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_981), side: .buy, price: 80_640_000,
                    amount: decimal("0.00124"), cost: 99_993.6))
        #expect(trades.first?.cost.description == "99993.6")
        #expect(zip(trades, trades.dropFirst()).allSatisfy { $0.time >= $1.time })
        #expect(Set(trades.map(\.side)) == [.buy, .sell])
    }

    @Test(
        "trade counts round up to one Coinone accepts, and the answer is cut to the limit",
        arguments: [(1, 10), (10, 10), (11, 50), (120, 150), (500, 200)])
    func tradeSizes(limit: Int, size: Int) async throws {
        let client = try bed.recorded()
        let trades = try await bed.adapter(client).trades(for: btc, limit: limit)
        #expect(client.requests.map(\.url) == [base + "/public/v2/trades/KRW/BTC?size=\(size)"])
        #expect(trades.count == min(limit, 200))
    }

    @Test(
        "the order book: best bid and ask first, cut to the depth, the size rounded up to one Coinone accepts",
        arguments: [(1, 5), (5, 5), (6, 10), (15, 15), (16, 16), (30, 16)])
    func orderBook(depth: Int, size: Int) async throws {
        let client = try bed.recorded()
        let book = try await bed.adapter(client).orderBook(for: btc, depth: depth)
        #expect(client.requests.map(\.url) == [base + "/public/v2/orderbook/KRW/BTC?size=\(size)"])
        #expect(book.bids.count == min(depth, 16))
        #expect(book.asks.count == min(depth, 16))
        #expect(book.bids.first == BookLevel(price: 80_640_000, amount: decimal("0.10472511")))
        #expect(book.asks.first == BookLevel(price: 80_649_000, amount: decimal("0.0315")))
        #expect(book.timestamp == Timestamp(millisecondsSince1970: 1_723_104_734_995))
        #expect(zip(book.bids, book.bids.dropFirst()).allSatisfy { $0.price > $1.price })
        #expect(zip(book.asks, book.asks.dropFirst()).allSatisfy { $0.price < $1.price })
    }
}

@Suite("Coinone errors")
struct CoinoneErrorTests {
    @Test("an unknown coin is not listed, from error 108 sent with HTTP 200, code and message verbatim")
    func unknownCoin() async throws {
        let client = try bed.recorded()
        await #expect(
            throws: AggError.notListed(venue: "coinone", market: nope, code: "108", message: "Unknown CryptoCurrency")
        ) {
            try await bed.adapter(client).quote(for: nope)
        }
        await #expect(
            throws: AggError.notListed(venue: "coinone", market: nope, code: "108", message: "Unknown CryptoCurrency")
        ) {
            try await bed.adapter(client).orderBook(for: nope, depth: 5)
        }
    }

    @Test(
        "error envelopes become typed errors whatever the key spelling",
        arguments: [
            (
                "coinone/error_108_unknown_cryptocurrency.json",
                AggError.notListed(venue: "coinone", market: btc, code: "108", message: "Unknown CryptoCurrency")
            ),
            ("coinone/error_4_blocked_user_access.json", .rateLimited(venue: "coinone", retryAfterSeconds: nil)),
            (
                "coinone/error_107_parameter_error.json",
                .venue(venue: "coinone", code: "107", message: "Parameter error")
            ),
        ])
    func envelopes(file: String, expected: AggError) async throws {
        let body = try Fixtures.bytes(file)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(throws: expected) {
            try await bed.adapter(client).quote(for: btc)
        }
    }

    @Test("the rate-limit block reads as such on one line naming the venue")
    func blocked() async throws {
        let body = try Fixtures.bytes("coinone/error_4_blocked_user_access.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        do {
            _ = try await bed.adapter(client).allQuotes(quotedIn: "KRW")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "coinone: rate limited by coinone")
            #expect(!CoinoneAdapter.descriptor.meansNotListed(error))
        }
    }

    @Test("108 counts as not listed; other codes do not")
    func notListed() {
        let descriptor = CoinoneAdapter.descriptor
        #expect(descriptor.meansNotListed(.venue(venue: "coinone", code: "108", message: "Unknown CryptoCurrency")))
        #expect(!descriptor.meansNotListed(.venue(venue: "coinone", code: "107", message: "Parameter error")))
    }

    @Test("a quote other than KRW fails without a request")
    func unservedQuote() async {
        let client = ScriptedHTTPClient(body: "{}")
        await #expect(throws: AggError.self) {
            try await bed.adapter(client).quote(for: Market(base: "BTC", quote: "USDT"))
        }
        await #expect(throws: AggError.self) {
            try await bed.adapter(client).allQuotes(quotedIn: "USDT")
        }
        #expect(client.requests.isEmpty)
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (502, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"result":"success","tickers":{}}"#, "decoding"),
            (200, #"{"result":"success","tickers":[]}"#, "decoding"),
            (
                200, #"{"result":"success","tickers":[{"quote_currency":"krw","target_currency":"btc","last":null}]}"#,
                "decoding"
            ),
            (
                200,
                #"{"result":"success","tickers":[{"quote_currency":"krw","target_currency":"btc","last":"80.64.0"}]}"#,
                "decoding"
            ),
            (
                200, #"{"result":"success","tickers":[{"quote_currency":"usd","target_currency":"btc","last":"1"}]}"#,
                "decoding"
            ),
            (200, #"{"result":"error"}"#, "venue"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let client = ScriptedHTTPClient(status: status, body: body)
        do {
            _ = try await bed.adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == kind)
            #expect(error.venue == "coinone")
            #expect(!error.description.contains("\n"))
        }
    }
}

/// The adapter over real HTTP: libcurl against the loopback server serving Fixtures/coinone.
@Suite("Coinone over HTTP")
struct CoinoneLoopbackTests {
    @Test("ticker, all tickers and an unknown coin, with exact decimals and the right paths")
    func overHTTP() async throws {
        let server = try FixtureServer(venues: ["coinone"])
        defer { server.stop() }
        let coinone = CoinoneAdapter(
            environment: AdapterEnvironment(
                baseURL: server.baseURL(for: "coinone"),
                http: CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))))

        #expect(try await coinone.quote(for: btc) == btcQuote)
        let all = try await coinone.allQuotes(quotedIn: "KRW")
        #expect(all.count == 220)
        #expect(all.first(where: { $0.market == eth })?.quoteVolume == decimal("8234125487.1154"))
        await #expect(
            throws: AggError.notListed(venue: "coinone", market: nope, code: "108", message: "Unknown CryptoCurrency")
        ) {
            try await coinone.quote(for: nope)
        }
        #expect(
            server.requests.map(\.target) == [
                "/coinone/public/v2/ticker_new/KRW/BTC", "/coinone/public/v2/ticker_new/KRW",
                "/coinone/public/v2/ticker_new/KRW/NOPE",
            ])
    }
}
