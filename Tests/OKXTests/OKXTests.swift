import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import OKX
import Testing

private let bed = AdapterTestBed(OKXAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")
private let nope = bed.market("NOPE")

/// The BTC-USDT ticker of the sample data: the change from the price 24 hours ago.
private let btcQuote = Quote(
    exchange: "okx", market: btc, last: decimal("58415.3"), open: decimal("58801.2"), high: 59140,
    low: decimal("56402.1"), change: decimal("-385.9"), changePercent: decimal("-0.6563"), changeBasis: .rolling24h,
    baseVolume: decimal("8123.40812245"), quoteVolume: decimal("470712354.68233018"),
    timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_012))

@Suite("OKX router")
struct OKXRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker(btc), "/api/v5/market/ticker?instId=BTC-USDT"),
            (.spotTickers, "/api/v5/market/tickers?instType=SPOT"),
            (.spotInstruments, "/api/v5/public/instruments?instType=SPOT"),
            (.books(btc, size: 20), "/api/v5/market/books?instId=BTC-USDT&sz=20"),
            (.trades(btc, limit: 100), "/api/v5/market/trades?instId=BTC-USDT&limit=100"),
            (
                .candles(btc, interval: .oneMinute, limit: 300),
                "/api/v5/market/candles?instId=BTC-USDT&bar=1m&limit=300"
            ),
            (.candles(eth, interval: .oneHour, limit: 5), "/api/v5/market/candles?instId=ETH-USDT&bar=1H&limit=5"),
            (.candles(eth, interval: .oneDay, limit: 5), "/api/v5/market/candles?instId=ETH-USDT&bar=1Dutc&limit=5"),
            (.candles(eth, interval: .sixHours, limit: 5), "/api/v5/market/candles?instId=ETH-USDT&bar=6Hutc&limit=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/okx") == "http://127.0.0.1:8080/okx" + path)
    }

    @Test(
        "instrument ids map to unified markets and back",
        arguments: [
            ("BTC-USDT", btc), ("ETH-BTC", Market(base: "ETH", quote: "BTC")),
            ("USDT-USDC", Market(base: "USDT", quote: "USDC")),
        ])
    func roundTrip(id: String, market: Market) {
        #expect(APIRouter.market(fromInstrumentID: id) == market)
        #expect(APIRouter.instrumentID(market) == id)
    }

    @Test(
        "ids that are not BASE-QUOTE with a quote agg asks OKX for map to nothing",
        arguments: ["BTC-EUR", "BTC-USDT-SWAP", "btc-usdt", "BTCUSDT", "-USDT", ""])
    func badIDs(id: String) {
        #expect(APIRouter.market(fromInstrumentID: id) == nil)
    }

    @Test("the descriptor declares what the adapter does, and OKX's limits")
    func descriptor() {
        let descriptor = OKXAdapter.descriptor
        #expect(descriptor.id == "okx")
        #expect(descriptor.homeCurrency == "USDT")
        #expect(descriptor.quoteCurrencies == ["USDT", "USDC", "BTC"])
        #expect(descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook])
        #expect(descriptor.requestsPerSecond == 10)
        #expect(descriptor.changeBasis == .rolling24h)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 300, trades: 500, bookDepth: 400,
                    candleIntervals: [
                        .oneMinute, .threeMinutes, .fiveMinutes, .thirtyMinutes, .oneHour, .sixHours, .twelveHours,
                        .oneDay,
                    ]))
    }
}

@Suite("OKX tickers")
struct OKXTickerTests {
    @Test("one ticker: every field exact, the change from the price 24 hours ago")
    func ticker() async throws {
        let client = try bed.recorded()
        let quote = try await bed.adapter(client).quote(for: btc)
        #expect(quote == btcQuote)
        #expect(quote.changePercent?.description == "-0.6563")
        #expect(client.requests.map(\.url) == [base + "/api/v5/market/ticker?instId=BTC-USDT"])
    }

    @Test("ETH-USDT")
    func ether() async throws {
        let quote = try await bed.adapter(try bed.recorded()).quote(for: eth)
        #expect(quote.last == decimal("2478.52"))
        #expect(quote.change == decimal("11.75"))
        #expect(quote.changePercent == decimal("0.4763"))
    }

    @Test(
        "all spot tickers: one request; each quote currency takes its own",
        arguments: [
            ("USDT", 199), ("USDC", 25), ("BTC", 16),
        ])
    func allTickers(currency: String, count: Int) async throws {
        let client = try bed.recorded()
        let quotes = try await bed.adapter(client).allQuotes(quotedIn: currency)
        #expect(client.requests.map(\.url) == [base + "/api/v5/market/tickers?instType=SPOT"])
        #expect(quotes.count == count)
        #expect(Set(quotes.map(\.market)).count == count)
        #expect(quotes.allSatisfy { $0.market.quote == currency && $0.exchange == "okx" })
    }

    @Test("in the all-tickers answer BTC-USDT is the same as on its own")
    func allTickersDetail() async throws {
        let quotes = try await bed.adapter(try bed.recorded()).allQuotes(quotedIn: "USDT")
        #expect(quotes.first == btcQuote)
    }

    @Test("several markets share the all-tickers request; a missing one is not listed")
    func batch() async throws {
        let client = try bed.recorded()
        let results = await bed.adapter(client).quotes(for: [btc, eth, nope])
        #expect(client.requests.map(\.url) == [base + "/api/v5/market/tickers?instType=SPOT"])
        #expect(try results[btc]?.get() == btcQuote)
        #expect(try results[eth]?.get().last == decimal("2478.52"))
        guard case .failure(let error)? = results[nope] else {
            Issue.record("expected NOPE to fail")
            return
        }
        #expect(error == .notListed(venue: "okx", market: nope, code: "", message: ""))
    }

    @Test("the instrument list: live spot instruments in the quotes agg asks for")
    func markets() async throws {
        let client = try bed.recorded()
        let listings = try await bed.adapter(client).markets()
        #expect(client.requests.map(\.url) == [base + "/api/v5/public/instruments?instType=SPOT"])
        #expect(listings.count == 239)
        #expect(listings.first == MarketListing(exchange: "okx", market: btc, venueSymbol: "BTC-USDT"))
        #expect(!listings.contains { $0.market.base == "BLAST" })
    }
}

@Suite("OKX market data")
struct OKXMarketDataTests {
    @Test("candles: oldest first (OKX sends the newest first), the newest still open at the last price")
    func candles() async throws {
        let client = try bed.recorded()
        let candles = try await bed.adapter(client).candles(for: btc, interval: .oneMinute, limit: 300)
        #expect(client.requests.map(\.url) == [base + "/api/v5/market/candles?instId=BTC-USDT&bar=1m&limit=300"])
        #expect(candles.count == 300)
        #expect(
            candles.first
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_086_780_000), open: decimal("58649.3"),
                    high: decimal("58652.8"), low: decimal("58644.3"), close: decimal("58651.3"),
                    volume: decimal("29.09725507")))
        #expect(
            candles.last
                == Candle(
                    time: Timestamp(millisecondsSince1970: 1_723_104_720_000), open: decimal("58413.3"),
                    high: decimal("58416.8"), low: 58413, close: decimal("58415.3"), volume: decimal("29.37889095")))
        #expect(
            zip(candles, candles.dropFirst()).allSatisfy {
                $0.time.millisecondsSince1970 + 60_000 == $1.time.millisecondsSince1970
            })
    }

    @Test("10-minute bars, which OKX lacks, are refused without a request")
    func missingInterval() async throws {
        let client = try bed.recorded()
        await #expect(
            throws: AggError.usage("okx does not offer 10m candles; its intervals: 1m, 3m, 5m, 30m, 1h, 6h, 12h, 24h")
        ) {
            try await bed.adapter(client).candles(for: btc, interval: .tenMinutes, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

    @Test("trades: newest first, the taker's side, cost exact")
    func trades() async throws {
        let client = try bed.recorded()
        let trades = try await bed.adapter(client).trades(for: btc, limit: 2)
        #expect(client.requests.map(\.url) == [base + "/api/v5/market/trades?instId=BTC-USDT&limit=2"])
        #expect(
            trades == [
                Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_998), side: .buy, price: decimal("58415.3"),
                    amount: decimal("0.00012"), cost: decimal("7.009836")),
                Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_790), side: .buy, price: decimal("58415.2"),
                    amount: decimal("0.41931523"), cost: decimal("24494.383023496")),
            ])
        let all = try await bed.adapter(try bed.recorded()).trades(for: btc, limit: 1000)
        #expect(all.count == 500)
        #expect(Set(all.map(\.side)) == [.buy, .sell])
    }

    @Test("the order book: [price, size, \"0\", orders] levels, best first, cut to the depth", arguments: [1, 20, 400])
    func orderBook(depth: Int) async throws {
        let client = try bed.recorded()
        let book = try await bed.adapter(client).orderBook(for: btc, depth: depth)
        #expect(client.requests.map(\.url) == [base + "/api/v5/market/books?instId=BTC-USDT&sz=\(depth)"])
        #expect(book.bids.count == depth)
        #expect(book.asks.count == depth)
        #expect(book.bids.first == BookLevel(price: decimal("58415.3"), amount: decimal("0.3215")))
        #expect(book.asks.first == BookLevel(price: decimal("58415.4"), amount: decimal("0.89041214")))
        #expect(book.timestamp == Timestamp(millisecondsSince1970: 1_723_104_735_021))
    }
}

@Suite("OKX errors")
struct OKXErrorTests {
    @Test("an unknown instrument is not listed, from code 51001 sent with HTTP 200")
    func unknownInstrument() async throws {
        let expected = AggError.notListed(
            venue: "okx", market: nope, code: "51001", message: "Instrument ID does not exist")
        await #expect(throws: expected) { try await bed.adapter(try bed.recorded()).quote(for: nope) }
        await #expect(throws: expected) { try await bed.adapter(try bed.recorded()).trades(for: nope, limit: 5) }
    }

    @Test(
        "error envelopes become typed errors",
        arguments: [
            (
                "okx/error_51001_instrument_not_exist.json", 200,
                AggError.notListed(venue: "okx", market: btc, code: "51001", message: "Instrument ID does not exist")
            ),
            ("okx/error_50011_too_many_requests.json", 429, .rateLimited(venue: "okx", retryAfterSeconds: nil)),
            ("okx/error_50011_too_many_requests.json", 200, .rateLimited(venue: "okx", retryAfterSeconds: nil)),
            (
                "okx/error_51000_parameter_error.json", 200,
                .venue(venue: "okx", code: "51000", message: "Parameter bar error")
            ),
        ])
    func envelopes(file: String, status: Int, expected: AggError) async throws {
        let body = try Fixtures.bytes(file)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: status, headers: [], body: body, url: request.url)
        }
        await #expect(throws: expected) {
            try await bed.adapter(client).quote(for: btc)
        }
    }

    @Test("51001 counts as not listed and 50011 as a rate limit; other codes do not")
    func notListed() {
        let descriptor = OKXAdapter.descriptor
        #expect(descriptor.notListedCodes == ["51001"])
        #expect(descriptor.rateLimitCodes == ["50011"])
        #expect(descriptor.meansNotListed(.venue(venue: "okx", code: "51001", message: "Instrument ID does not exist")))
        #expect(!descriptor.meansNotListed(.venue(venue: "okx", code: "51000", message: "Parameter error")))
    }

    @Test("a quote agg does not ask OKX for fails without a request")
    func unservedQuote() async {
        let client = ScriptedHTTPClient(body: "{}")
        await #expect(throws: AggError.self) {
            try await bed.adapter(client).quote(for: Market(base: "BTC", quote: "KRW"))
        }
        await #expect(throws: AggError.self) { try await bed.adapter(client).allQuotes(quotedIn: "EUR") }
        #expect(client.requests.isEmpty)
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (503, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"code":"0","msg":"","data":{}}"#, "decoding"),
            (200, #"{"code":"0","msg":"","data":[]}"#, "decoding"),
            (200, #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":""}]}"#, "decoding"),
            (200, #"{"code":"0","msg":"","data":[{"instId":"BTC-USDT","last":"58415.3","ts":"soon"}]}"#, "decoding"),
            (200, #"{"code":"1","msg":"Operation failed."}"#, "venue"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let client = ScriptedHTTPClient(status: status, body: body)
        do {
            _ = try await bed.adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == kind)
            #expect(error.venue == "okx")
            #expect(!error.description.contains("\n"))
        }
    }
}

/// The adapter over real HTTP: libcurl against the loopback server serving Fixtures/okx.
@Suite("OKX over HTTP")
struct OKXLoopbackTests {
    @Test("a ticker, all tickers and an unknown instrument, with exact decimals and the right paths")
    func overHTTP() async throws {
        let server = try FixtureServer(venues: ["okx"])
        defer { server.stop() }
        let okx = OKXAdapter(
            environment: AdapterEnvironment(
                baseURL: server.baseURL(for: "okx"), http: CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5)))
        )
        #expect(try await okx.quote(for: btc) == btcQuote)
        #expect(try await okx.allQuotes(quotedIn: "USDT").count == 199)
        await #expect(
            throws: AggError.notListed(
                venue: "okx", market: nope, code: "51001", message: "Instrument ID does not exist")
        ) {
            try await okx.quote(for: nope)
        }
        #expect(
            server.requests.map(\.target) == [
                "/okx/api/v5/market/ticker?instId=BTC-USDT", "/okx/api/v5/market/tickers?instType=SPOT",
                "/okx/api/v5/market/ticker?instId=NOPE-USDT",
            ])
    }
}
