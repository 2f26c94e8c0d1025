import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Kraken
import Testing

private let bed = AdapterTestBed(KrakenAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")
private let nope = bed.market("NOPE")

/// The BTC/USD ticker of the sample data: the change from today's open, 58419.9 − 57210.4.
private let btcQuote = Quote(
    exchange: "kraken", market: btc, last: decimal("58419.9"), open: decimal("57210.4"), high: 59140,
    low: 56402, change: decimal("1209.5"), changePercent: decimal("2.1141"), changeBasis: .sinceUTCMidnight,
    baseVolume: decimal("4318.24710582"))

@Suite("Kraken names and router")
struct KrakenRouterTests {
    @Test(
        "every endpoint's URL, BTC asked for as XBT",
        arguments: [
            (APIRouter.ticker(btc), "/0/public/Ticker?pair=XBTUSD"),
            (.ticker(Market(base: "DOGE", quote: "EUR")), "/0/public/Ticker?pair=XDGEUR"),
            (.ticker(Market(base: "SOL", quote: "USDT")), "/0/public/Ticker?pair=SOLUSDT"),
            (.allTickers, "/0/public/Ticker"),
            (.assetPairs, "/0/public/AssetPairs"),
            (.depth(btc, count: 10), "/0/public/Depth?pair=XBTUSD&count=10"),
            (.trades(btc, count: 100), "/0/public/Trades?pair=XBTUSD&count=100"),
            (.ohlc(btc, interval: .oneMinute), "/0/public/OHLC?pair=XBTUSD&interval=1"),
            (.ohlc(eth, interval: .oneDay), "/0/public/OHLC?pair=ETHUSD&interval=1440"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/kraken") == "http://127.0.0.1:8080/kraken" + path)
    }

    @Test(
        "the pair names Kraken answers under map back to markets, legacy prefixes and all",
        arguments: [
            ("XXBTZUSD", "USD", Optional(btc)), ("XETHZUSD", "USD", eth),
            ("XXDGZUSD", "USD", Market(base: "DOGE", quote: "USD")),
            ("SOLUSD", "USD", Market(base: "SOL", quote: "USD")),
            ("XTZUSD", "USD", Market(base: "XTZ", quote: "USD")),
            ("USDTZUSD", "USD", Market(base: "USDT", quote: "USD")),
            ("USDCUSD", "USD", Market(base: "USDC", quote: "USD")),
            ("XXBTZEUR", "EUR", Market(base: "BTC", quote: "EUR")),
            ("USDTEUR", "EUR", Market(base: "USDT", quote: "EUR")),
            ("XBTUSDT", "USDT", Market(base: "BTC", quote: "USDT")),
            ("XDGUSDT", "USDT", Market(base: "DOGE", quote: "USDT")),
            ("XETHXXBT", "BTC", Market(base: "ETH", quote: "BTC")),
            ("SOLXBT", "BTC", Market(base: "SOL", quote: "BTC")),
            ("XBTUSDT", "USD", nil), ("XXBTZEUR", "USD", nil), ("USD", "USD", nil), ("ZUSDZUSD", "USD", nil),
            ("XBT-USD", "USD", nil),
        ])
    func pairNames(name: String, quote: String, market: Market?) {
        #expect(KrakenPairs.market(fromPairName: name, quote: quote) == market)
    }

    @Test(
        "asset names: XBT is BTC, XDG is DOGE, legacy prefixes come off",
        arguments: [
            ("XXBT", "BTC"), ("XBT", "BTC"), ("XDG", "DOGE"), ("XXDG", "DOGE"), ("ZUSD", "USD"), ("XETH", "ETH"),
            ("SOL", "SOL"), ("USDT", "USDT"), ("XTZ", "XTZ"), ("XCN", "XCN"),
        ])
    func assetNames(name: String, code: String) {
        #expect(KrakenPairs.unifiedCode(name) == code)
    }

    @Test("the descriptor declares what the adapter does, and Kraken's limits")
    func descriptor() {
        let descriptor = KrakenAdapter.descriptor
        #expect(descriptor.id == "kraken")
        #expect(descriptor.country == "US")
        #expect(descriptor.homeCurrency == "USD")
        #expect(descriptor.quoteCurrencies == ["USD", "EUR", "USDT"])
        #expect(descriptor.capabilities == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook])
        #expect(descriptor.requestsPerSecond == 1)
        #expect(descriptor.changeBasis == .sinceUTCMidnight)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 720, trades: 1000, bookDepth: 500,
                    candleIntervals: [.oneMinute, .fiveMinutes, .thirtyMinutes, .oneHour, .oneDay]))
    }
}

@Suite("Kraken tickers")
struct KrakenTickerTests {
    @Test("one ticker, answered under XXBTZUSD: every field exact, the change from today's open")
    func ticker() async throws {
        let client = try bed.recorded()
        let quote = try await bed.adapter(client).quote(for: btc)
        #expect(quote == btcQuote)
        #expect(quote.last.description == "58419.9")
        #expect(quote.changePercent?.description == "2.1141")
        #expect(quote.timestamp == nil)
        #expect(client.requests.map(\.url) == [base + "/0/public/Ticker?pair=XBTUSD"])
    }

    @Test("ETH/USD, answered under XETHZUSD")
    func ether() async throws {
        let quote = try await bed.adapter(try bed.recorded()).quote(for: eth)
        #expect(quote.last == decimal("2478.69"))
        #expect(quote.change == decimal("42.58"))
        #expect(quote.changePercent == decimal("1.7479"))
    }

    @Test("an answer for another pair than the one asked for is a decoding error")
    func wrongPair() async throws {
        let body = try Fixtures.bytes("kraken/Ticker_ETHUSD.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(
            throws: AggError.decoding(
                venue: "kraken", path: "$.result.XETHZUSD", detail: "asked for BTC/USD, got ETH/USD")
        ) {
            try await bed.adapter(client).quote(for: btc)
        }
    }

    @Test(
        "all tickers: one request holds every quote; each currency takes its own pairs",
        arguments: [
            ("USD", 150), ("EUR", 12), ("USDT", 12),
        ])
    func allTickers(currency: String, count: Int) async throws {
        let client = try bed.recorded()
        let quotes = try await bed.adapter(client).allQuotes(quotedIn: currency)
        #expect(client.requests.map(\.url) == [base + "/0/public/Ticker"])
        #expect(quotes.count == count)
        #expect(Set(quotes.map(\.market)).count == count)
        #expect(quotes.allSatisfy { $0.market.quote == currency && $0.exchange == "kraken" })
    }

    @Test("in the all-tickers answer BTC/USD is the same as on its own, and Tezos is XTZ")
    func allTickersDetail() async throws {
        let quotes = try await bed.adapter(try bed.recorded()).allQuotes(quotedIn: "USD")
        #expect(quotes.first == btcQuote)
        #expect(quotes.contains { $0.market == Market(base: "XTZ", quote: "USD") })
        #expect(quotes.contains { $0.market == Market(base: "DOGE", quote: "USD") })
        #expect(!quotes.contains { $0.market.base == "XT" || $0.market.base == "XBT" })
    }

    @Test("several markets share the all-tickers request; a missing one is not listed")
    func batch() async throws {
        let client = try bed.recorded()
        let results = await bed.adapter(client).quotes(for: [btc, eth, nope])
        #expect(client.requests.map(\.url) == [base + "/0/public/Ticker"])
        #expect(try results[btc]?.get() == btcQuote)
        #expect(try results[eth]?.get().last == decimal("2478.69"))
        guard case .failure(let error)? = results[nope] else {
            Issue.record("expected NOPE to fail")
            return
        }
        #expect(error == .notListed(venue: "kraken", market: nope, code: "", message: ""))
    }

    @Test("the pair list: online pairs in the quotes agg asks for, named from wsname")
    func markets() async throws {
        let client = try bed.recorded()
        let listings = try await bed.adapter(client).markets()
        #expect(client.requests.map(\.url) == [base + "/0/public/AssetPairs"])
        #expect(listings.count == 173)
        #expect(listings.first == MarketListing(exchange: "kraken", market: btc, venueSymbol: "XBTUSD"))
        #expect(listings.contains { $0.market == Market(base: "DOGE", quote: "USDT") && $0.venueSymbol == "XDGUSDT" })
        #expect(!listings.contains { $0.market == Market(base: "BLUR", quote: "USD") })
        #expect(!listings.contains { $0.market.quote == "BTC" })
    }
}

@Suite("Kraken market data")
struct KrakenMarketDataTests {
    @Test("candles: the last 720 one-minute bars, oldest first, times in seconds; the limit keeps the newest")
    func candles() async throws {
        let client = try bed.recorded()
        let candles = try await bed.adapter(client).candles(for: btc, interval: .oneMinute, limit: 720)
        #expect(client.requests.map(\.url) == [base + "/0/public/OHLC?pair=XBTUSD&interval=1"])
        #expect(candles.count == 720)
        #expect(
            candles.last
                == Candle(
                    time: Timestamp(secondsSince1970: 1_723_104_720), open: decimal("58410.9"),
                    high: decimal("58421.9"),
                    low: decimal("58410.9"), close: decimal("58419.9"), volume: decimal("10.07936895")))
        #expect(candles.first?.time == Timestamp(secondsSince1970: 1_723_061_580))
        let three = try await bed.adapter(try bed.recorded()).candles(for: btc, interval: .oneMinute, limit: 3)
        #expect(three.map(\.time.millisecondsSince1970) == [1_723_104_600_000, 1_723_104_660_000, 1_723_104_720_000])
        #expect(three.first?.close == decimal("58435.9"))
    }

    @Test("trades: newest first, b a buy, the time in seconds read exactly to the millisecond")
    func trades() async throws {
        let client = try bed.recorded()
        let trades = try await bed.adapter(client).trades(for: btc, limit: 2)
        #expect(client.requests.map(\.url) == [base + "/0/public/Trades?pair=XBTUSD&count=2"])
        #expect(
            trades == [
                Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_734_567), side: .buy, price: decimal("58419.9"),
                    amount: decimal("0.00128"), cost: decimal("74.777472")),
                Trade(
                    time: Timestamp(millisecondsSince1970: 1_723_104_731_209), side: .buy, price: 58420,
                    amount: decimal("0.33693223"), cost: decimal("19683.5808766")),
            ])
        let all = try await bed.adapter(try bed.recorded()).trades(for: btc, limit: 5000)
        #expect(all.count == 1000)
        #expect(Set(all.map(\.side)) == [.buy, .sell])
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.time >= $1.time })
    }

    @Test("the order book: [price, volume, time] levels, best first, cut to the depth", arguments: [1, 10, 100])
    func orderBook(depth: Int) async throws {
        let client = try bed.recorded()
        let book = try await bed.adapter(client).orderBook(for: btc, depth: depth)
        #expect(client.requests.map(\.url) == [base + "/0/public/Depth?pair=XBTUSD&count=\(depth)"])
        #expect(book.bids.count == depth)
        #expect(book.asks.count == depth)
        #expect(book.bids.first == BookLevel(price: decimal("58419.9"), amount: 2))
        #expect(book.asks.first == BookLevel(price: 58420, amount: 1))
    }

    @Test(
        "bar lengths Kraken lacks are refused without a request",
        arguments: [CandleInterval.threeMinutes, .twelveHours])
    func missingInterval(interval: CandleInterval) async throws {
        let client = try bed.recorded()
        await #expect(
            throws: AggError.usage(
                "kraken does not offer \(interval.rawValue) candles; its intervals: 1m, 5m, 30m, 1h, 24h")
        ) {
            try await bed.adapter(client).candles(for: btc, interval: interval, limit: 10)
        }
        #expect(client.requests.isEmpty)
    }

    @Test(
        "trade times in seconds become exact milliseconds; other text is refused",
        arguments: [
            ("1723104734.5678", Optional(Int64(1_723_104_734_567))), ("1723104734", 1_723_104_734_000),
            ("1723104734.5", 1_723_104_734_500), ("1723104734.0009999", 1_723_104_734_000),
            ("-1", nil), ("1.5e9", nil), ("", nil), ("17231047345678999", nil), ("12.", nil),
        ])
    func tradeTimes(text: String, milliseconds: Int64?) async {
        // Sent as a string: the numbers' own path is covered by the recorded trades.
        let body = #"{"error":[],"result":{"XXBTZUSD":[["1","1","\#(text)","b","l",""]]}}"#
        let client = ScriptedHTTPClient(body: body)
        do {
            let trades = try await bed.adapter(client).trades(for: btc, limit: 1)
            #expect(trades.first?.time.millisecondsSince1970 == milliseconds)
        } catch {
            #expect(milliseconds == nil)
            #expect(error.kind == "decoding")
        }
    }
}

@Suite("Kraken errors")
struct KrakenErrorTests {
    @Test("an unknown pair is not listed, from EQuery:Unknown asset pair sent with HTTP 200")
    func unknownPair() async throws {
        let expected = AggError.notListed(
            venue: "kraken", market: nope, code: "EQuery:Unknown asset pair", message: "Unknown asset pair")
        await #expect(throws: expected) { try await bed.adapter(try bed.recorded()).quote(for: nope) }
        await #expect(throws: expected) { try await bed.adapter(try bed.recorded()).orderBook(for: nope, depth: 5) }
        let kraken = bed.adapter(try bed.recorded())
        do throws(AggError) {
            _ = try await kraken.quote(for: nope)
        } catch {
            #expect(
                error.description
                    == "kraken: NOPE/USD is not listed (error EQuery:Unknown asset pair: Unknown asset pair)")
        }
    }

    @Test(
        "error arrays become typed errors; warnings alone do not fail an answer",
        arguments: [
            (
                #"{"error":["EQuery:Unknown asset pair"],"result":{}}"#,
                AggError.notListed(
                    venue: "kraken", market: btc, code: "EQuery:Unknown asset pair", message: "Unknown asset pair")
            ),
            (#"{"error":["EAPI:Rate limit exceeded"]}"#, .rateLimited(venue: "kraken", retryAfterSeconds: nil)),
            (#"{"error":["EGeneral:Too many requests"]}"#, .rateLimited(venue: "kraken", retryAfterSeconds: nil)),
            (
                #"{"error":["EService:Unavailable","EService:Busy"]}"#,
                .venue(venue: "kraken", code: "EService:Unavailable", message: "Unavailable; EService:Busy")
            ),
            (
                #"{"error":["EGeneral:Internal error"]}"#,
                .venue(venue: "kraken", code: "EGeneral:Internal error", message: "Internal error")
            ),
        ])
    func envelopes(body: String, expected: AggError) async throws {
        let client = ScriptedHTTPClient(body: body)
        await #expect(throws: expected) {
            try await bed.adapter(client).quote(for: btc)
        }
    }

    @Test("a warning with a result decodes the result")
    func warning() async throws {
        let ticker = try String(decoding: Fixtures.bytes("kraken/Ticker_XBTUSD.json"), as: UTF8.self)
        let client = ScriptedHTTPClient(
            body: ticker.replacing(#""error":[]"#, with: #""error":["WGeneral:Deprecated"]"#))
        #expect(try await bed.adapter(client).quote(for: btc) == btcQuote)
    }

    @Test("the rate-limit error fixture reads as a rate limit")
    func rateLimitFixture() async throws {
        let body = try Fixtures.bytes("kraken/error_rate_limit_exceeded.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(throws: AggError.rateLimited(venue: "kraken", retryAfterSeconds: nil)) {
            try await bed.adapter(client).allQuotes(quotedIn: "USD")
        }
    }

    @Test("only the unknown-pair error counts as not listed; the two rate-limit errors are rate limits")
    func notListed() {
        let descriptor = KrakenAdapter.descriptor
        #expect(descriptor.notListedCodes == ["EQuery:Unknown asset pair"])
        #expect(descriptor.rateLimitCodes == ["EAPI:Rate limit exceeded", "EGeneral:Too many requests"])
        #expect(
            descriptor.meansNotListed(
                .venue(venue: "kraken", code: "EQuery:Unknown asset pair", message: "Unknown asset pair")))
        #expect(
            !descriptor.meansNotListed(.venue(venue: "kraken", code: "EQuery:Unknown asset", message: "Unknown asset")))
        #expect(!descriptor.meansNotListed(.venue(venue: "kraken", code: "EGeneral:Internal error", message: "")))
    }

    @Test("a quote agg does not ask Kraken for fails without a request")
    func unservedQuote() async {
        let client = ScriptedHTTPClient(body: "{}")
        await #expect(throws: AggError.self) {
            try await bed.adapter(client).quote(for: Market(base: "BTC", quote: "KRW"))
        }
        await #expect(throws: AggError.self) { try await bed.adapter(client).allQuotes(quotedIn: "KRW") }
        #expect(client.requests.isEmpty)
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (520, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"error":[],"result":{}}"#, "decoding"),
            (200, #"{"error":[],"result":{"XXBTZUSD":{"c":[]}}}"#, "decoding"),
            (200, #"{"error":[],"result":{"XXBTZUSD":{"c":["58,419.9.0"]}}}"#, "decoding"),
            (200, #"{"error":[],"result":{"XXBTZUSD":{"c":["1"]},"XETHZUSD":{"c":["1"]}}}"#, "decoding"),
            (200, #"{"error":"EQuery:Unknown asset pair"}"#, "decoding"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let client = ScriptedHTTPClient(status: status, body: body)
        do {
            _ = try await bed.adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == kind)
            #expect(error.venue == "kraken")
            #expect(!error.description.contains("\n"))
        }
    }
}

/// The adapter over real HTTP: libcurl against the loopback server serving Fixtures/kraken.
@Suite("Kraken over HTTP")
struct KrakenLoopbackTests {
    @Test("a ticker under XXBTZUSD, all tickers and an unknown pair, with exact decimals and the right paths")
    func overHTTP() async throws {
        let server = try FixtureServer(venues: ["kraken"])
        defer { server.stop() }
        let kraken = KrakenAdapter(
            environment: AdapterEnvironment(
                baseURL: server.baseURL(for: "kraken"),
                http: CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 5))))
        #expect(try await kraken.quote(for: btc) == btcQuote)
        #expect(try await kraken.allQuotes(quotedIn: "USD").count == 150)
        await #expect(
            throws: AggError.notListed(
                venue: "kraken", market: nope, code: "EQuery:Unknown asset pair", message: "Unknown asset pair")
        ) {
            try await kraken.quote(for: nope)
        }
        #expect(
            server.requests.map(\.target) == [
                "/kraken/0/public/Ticker?pair=XBTUSD", "/kraken/0/public/Ticker",
                "/kraken/0/public/Ticker?pair=NOPEUSD",
            ])
    }
}
