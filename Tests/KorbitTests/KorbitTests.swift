import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Korbit
import Testing

private let bed = AdapterTestBed(KorbitAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")
private let nope = bed.market("NOPE")

/// The BTC/KRW ticker of the sample data, every field.
private let btcQuote = Quote(
    exchange: "korbit", market: btc, last: 80_645_000, open: 79_920_000, high: 81_470_000, low: 77_760_000,
    previousClose: 79_950_000, change: 695_000, changePercent: decimal("0.87"), baseVolume: decimal("184.35571236"),
    quoteVolume: decimal("14721590432.51286"), timestamp: Timestamp(millisecondsSince1970: 1_723_104_733_875))

@Suite("Korbit router")
struct KorbitRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.tickers([btc]), "/v2/tickers?symbol=btc_krw"),
            (.tickers([btc, eth]), "/v2/tickers?symbol=btc_krw,eth_krw"),
            (.allTickers, "/v2/tickers"),
            (.currencyPairs, "/v2/currencyPairs"),
            (.orderBook(btc), "/v2/orderbook?symbol=btc_krw"),
            (.trades(btc, limit: 500), "/v2/trades?symbol=btc_krw&limit=500"),
            (.candles(btc, interval: .oneMinute, limit: 200), "/v2/candles?symbol=btc_krw&interval=1&limit=200"),
            (.candles(eth, interval: .oneHour, limit: 5), "/v2/candles?symbol=eth_krw&interval=60&limit=5"),
            (.candles(eth, interval: .oneDay, limit: 5), "/v2/candles?symbol=eth_krw&interval=1D&limit=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/korbit") == "http://127.0.0.1:8080/korbit" + path)
    }

    @Test(
        "symbols map to unified markets and back",
        arguments: [("btc_krw", btc), ("eth_krw", eth), ("1inch_krw", Market(base: "1INCH", quote: "KRW"))])
    func roundTrip(symbol: String, market: Market) {
        #expect(APIRouter.market(fromSymbol: symbol) == market)
        #expect(APIRouter.symbol(market) == symbol)
    }

    @Test(
        "symbols that are not base_quote with a quote Korbit serves map to nothing",
        arguments: ["btc", "btc_usdt", "btc-krw", "_krw", "btc_krw_x", "", "비트_krw"])
    func badSymbols(symbol: String) {
        #expect(APIRouter.market(fromSymbol: symbol) == nil)
    }

    @Test("the descriptor declares what the adapter does, and Korbit's limits")
    func descriptor() {
        let descriptor = KorbitAdapter.descriptor
        #expect(descriptor.id == "korbit")
        #expect(descriptor.country == "KR")
        #expect(descriptor.homeCurrency == "KRW")
        #expect(
            descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus])
        #expect(descriptor.requestsPerSecond == 50)
        #expect(descriptor.changeBasis == nil)
        #expect(descriptor.notListedCodes == ["INVALID_CURRENCY_PAIR"])
        #expect(descriptor.defaultBaseURL == base)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 200, trades: 500, bookDepth: 30,
                    candleIntervals: [.oneMinute, .fiveMinutes, .thirtyMinutes, .oneHour, .oneDay]))
    }
}

@Suite("Korbit rate limit header")
struct KorbitRateLimitTests {
    /// A response carrying Korbit's `Ratelimit` header.
    private func response(_ header: String?) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: header.map { [HTTPHeader(name: "ratelimit", value: $0)] } ?? [], body: [], url: base)
    }

    @Test("the descriptor names the Ratelimit header; the next request waits for the window only when none is left")
    func pause() throws {
        let header = try #require(KorbitAdapter.descriptor.quotaHeader)
        #expect(header == .rateLimit)
        #expect(header.pause(after: response("limit=50, remaining=0, reset=1")) == 1)
        #expect(header.pause(after: response("remaining=0,reset=3,limit=50")) == 3)
        #expect(header.pause(after: response("limit=50, remaining=1, reset=1")) == nil)
        #expect(header.pause(after: response("limit=50, remaining=x, reset=1")) == nil)
        #expect(header.pause(after: response(nil)) == nil)
    }
}

@Suite("Korbit tickers")
struct KorbitTickerTests {
    @Test("one ticker: every field exact, Korbit's own change against the previous close")
    func ticker() async throws {
        let client = try bed.recorded()
        let quote = try await bed.adapter(client).quote(for: btc)
        #expect(quote == btcQuote)
        #expect(quote.changeBasis == nil)
        #expect(quote.quoteVolume?.description == "14721590432.51286")
        #expect(client.requests.map(\.url) == [base + "/v2/tickers?symbol=btc_krw"])
    }

    @Test("a symbol Korbit does not know is left out of its answer: not listed")
    func unknown() async throws {
        let client = try bed.recorded()
        await #expect(throws: AggError.notListed(venue: "korbit", market: nope, code: "", message: "")) {
            try await bed.adapter(client).quote(for: nope)
        }
        #expect(client.requests.map(\.url) == [base + "/v2/tickers?symbol=nope_krw"])
    }

    @Test("several markets go in one request; the one Korbit leaves out is not listed")
    func batch() async throws {
        let client = try bed.recorded()
        let results = await bed.adapter(client).quotes(for: [btc, eth, nope, eth])
        #expect(client.requests.map(\.url) == [base + "/v2/tickers?symbol=btc_krw,eth_krw,nope_krw"])
        #expect(try results[btc]?.get() == btcQuote)
        #expect(try results[eth]?.get().last == 3_407_000)
        #expect(try results[eth]?.get().changePercent == decimal("0.44"))
        guard case .failure(let error)? = results[nope] else {
            Issue.record("expected NOPE to fail")
            return
        }
        #expect(error == .notListed(venue: "korbit", market: nope, code: "", message: ""))
    }

    @Test("all tickers: one request, stopped pairs included, BTC the same as on its own")
    func allTickers() async throws {
        let client = try bed.recorded()
        let quotes = try await bed.adapter(client).allQuotes(quotedIn: "KRW")
        #expect(client.requests.map(\.url) == [base + "/v2/tickers"])
        #expect(quotes.count == 224)
        #expect(quotes.first == btcQuote)
        #expect(Set(quotes.map(\.market)).count == 224)
        #expect(quotes.allSatisfy { $0.exchange == "korbit" && $0.market.quote == "KRW" })
    }

    @Test("the pair list keeps launched pairs only")
    func markets() async throws {
        let client = try bed.recorded()
        let listings = try await bed.adapter(client).markets()
        #expect(client.requests.map(\.url) == [base + "/v2/currencyPairs"])
        #expect(listings.count == 200)
        #expect(listings.first == MarketListing(exchange: "korbit", market: btc, venueSymbol: "btc_krw"))
    }
}

@Suite("Korbit market data")
struct KorbitMarketDataTests {
    @Test("candles: oldest first, first and last bars exact")
    func candles() async throws {
        let client = try bed.recorded()
        let candles = try await bed.adapter(client).candles(for: btc, interval: .oneMinute, limit: 200)
        #expect(client.requests.map(\.url) == [base + "/v2/candles?symbol=btc_krw&interval=1&limit=200"])
        #expect(candles.count == 200)
        #expect(
            candles.first
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_092_780_000), open: 80_647_000, high: 80_647_000,
                    low: 80_646_000, close: 80_647_000, volume: decimal("2.91082359")))
        #expect(
            candles.last
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_104_720_000), open: 80_675_000, high: 80_675_000,
                    low: 80_645_000, close: 80_645_000, volume: decimal("2.48753898")))
        #expect(zip(candles, candles.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test(
        "bar lengths Korbit lacks are refused without a request",
        arguments: [CandleInterval.threeMinutes, .tenMinutes, .sixHours, .twelveHours])
    func missingInterval(interval: CandleInterval) async throws {
        let client = try bed.recorded()
        await #expect(
            throws: AggError.usage(
                "korbit does not offer \(interval.rawValue) candles; its intervals: 1m, 5m, 30m, 1h, 24h")
        ) {
            try await bed.adapter(client).candles(for: btc, interval: interval, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

    @Test("trades: newest first, isBuyerTaker a buy, cost exact, cut to the limit")
    func trades() async throws {
        let client = try bed.recorded()
        let trades = try await bed.adapter(client).trades(for: btc, limit: 20)
        #expect(client.requests.map(\.url) == [base + "/v2/trades?symbol=btc_krw&limit=20"])
        #expect(trades.count == 20)
        #expect(
            trades.first
                == Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_733_875), side: .buy, price: 80_645_000,
                    amount: decimal("0.0067"), cost: decimal("540321.5")))
        #expect(zip(trades, trades.dropFirst()).allSatisfy { $0.time >= $1.time })
        let all = try await bed.adapter(try bed.recorded()).trades(for: btc, limit: 1000)
        #expect(all.count == 500)
        #expect(Set(all.map(\.side)) == [.buy, .sell])
    }

    @Test("the order book: best first, cut to the depth", arguments: [1, 5, 30, 50])
    func orderBook(depth: Int) async throws {
        let client = try bed.recorded()
        let book = try await bed.adapter(client).orderBook(for: btc, depth: depth)
        #expect(client.requests.map(\.url) == [base + "/v2/orderbook?symbol=btc_krw"])
        #expect(book.bids.count == min(depth, 30))
        #expect(book.asks.count == min(depth, 30))
        #expect(book.bids.first == BookLevel(price: 80_640_000, amount: decimal("0.01919775")))
        #expect(book.asks.first == BookLevel(price: 80_645_000, amount: decimal("0.27522")))
        #expect(book.timestamp == Timestamp(millisecondsSince1970: 1_723_104_734_712))
    }
}

@Suite("Korbit errors")
struct KorbitErrorTests {
    @Test("an unknown pair in the book, trades or candles is not listed, from HTTP 400 INVALID_CURRENCY_PAIR")
    func unknownPair() async throws {
        let expected = AggError.notListed(
            venue: "korbit", market: nope, code: "INVALID_CURRENCY_PAIR", message: "HTTP 400")
        await #expect(throws: expected) { try await bed.adapter(try bed.recorded()).orderBook(for: nope, depth: 5) }
        await #expect(throws: expected) { try await bed.adapter(try bed.recorded()).trades(for: nope, limit: 5) }
        await #expect(throws: expected) {
            try await bed.adapter(try bed.recorded()).candles(for: nope, interval: .oneMinute, limit: 5)
        }
    }

    @Test(
        "error envelopes become typed errors",
        arguments: [
            (
                "korbit/error_400_invalid_currency_pair.json", 400, [HTTPHeader](),
                AggError.notListed(venue: "korbit", market: btc, code: "INVALID_CURRENCY_PAIR", message: "HTTP 400")
            ),
            (
                "korbit/error_400_bad_request.json", 400, [],
                .venue(venue: "korbit", code: "BAD_REQUEST", message: "HTTP 400")
            ),
            (
                "korbit/error_429_too_many_requests.json", 429, [HTTPHeader(name: "Retry-After", value: "1")],
                .rateLimited(venue: "korbit", retryAfterSeconds: 1)
            ),
        ])
    func envelopes(file: String, status: Int, headers: [HTTPHeader], expected: AggError) async throws {
        let body = try Fixtures.bytes(file)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: status, headers: headers, body: body, url: request.url)
        }
        await #expect(throws: expected) {
            try await bed.adapter(client).orderBook(for: btc, depth: 5)
        }
    }

    @Test("a description, when Korbit sends one, is the message, verbatim")
    func description() async {
        let client = ScriptedHTTPClient(
            status: 400,
            body: #"{"success":false,"error":{"message":"INVALID_REQUEST","description":"limit must be 1..500"}}"#)
        await #expect(throws: AggError.venue(venue: "korbit", code: "INVALID_REQUEST", message: "limit must be 1..500"))
        {
            try await bed.adapter(client).trades(for: btc, limit: 5)
        }
    }

    @Test("a quote other than KRW fails without a request")
    func unservedQuote() async {
        let client = ScriptedHTTPClient(body: "{}")
        await #expect(throws: AggError.self) {
            try await bed.adapter(client).quote(for: Market(base: "BTC", quote: "USDT"))
        }
        let results = await bed.adapter(client).quotes(for: [
            Market(base: "BTC", quote: "USDT"), Market(base: "ETH", quote: "BTC"),
        ])
        #expect(results.count == 2)
        #expect(results.values.allSatisfy { if case .failure(.notListed) = $0 { true } else { false } })
        #expect(client.requests.isEmpty)
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (502, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"success":true,"data":{}}"#, "decoding"),
            (200, #"{"success":true,"data":[{"symbol":"btc_krw","close":null}]}"#, "decoding"),
            (200, #"{"success":true,"data":[{"symbol":"btc_usdt","close":"1"}]}"#, "decoding"),
            (200, #"{"success":false}"#, "venue"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let client = ScriptedHTTPClient(status: status, body: body)
        do {
            _ = try await bed.adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == kind)
            #expect(error.venue == "korbit")
            #expect(!error.description.contains("\n"))
        }
    }
}

/// The adapter over real HTTP: libcurl against the loopback server serving Fixtures/korbit.
@Suite("Korbit over HTTP")
struct KorbitLoopbackTests {
    @Test("a batch, all tickers and an unknown pair, with exact decimals, the right paths and the Ratelimit header")
    func overHTTP() async throws {
        let server = try FixtureServer(venues: ["korbit"])
        defer { server.stop() }
        let http = CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))
        let korbit = KorbitAdapter(environment: AdapterEnvironment(baseURL: server.baseURL(for: "korbit"), http: http))

        let results = await korbit.quotes(for: [btc, eth])
        #expect(try results[btc]?.get() == btcQuote)
        #expect(try results[eth]?.get().quoteVolume == decimal("6170235874.21547"))
        #expect(try await korbit.allQuotes(quotedIn: "KRW").count == 224)
        await #expect(
            throws: AggError.notListed(
                venue: "korbit", market: nope, code: "INVALID_CURRENCY_PAIR", message: "HTTP 400")
        ) {
            try await korbit.orderBook(for: nope, depth: 5)
        }
        #expect(
            server.requests.map(\.target) == [
                "/korbit/v2/tickers?symbol=btc_krw,eth_krw", "/korbit/v2/tickers",
                "/korbit/v2/orderbook?symbol=nope_krw",
            ])
        let response = try await http.send(
            HTTPRequest(url: server.baseURL(for: "korbit") + "/v2/tickers?symbol=btc_krw"))
        #expect(
            response.header("Ratelimit").flatMap(RateLimitWindow.init(header:))
                == RateLimitWindow(
                    limit: 50, remaining: 49, reset: 1))
    }
}
