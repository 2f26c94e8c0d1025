import AggCore
import AggJSON
import FoundationEssentials
import Testing

/// The decoding pieces adapters share instead of each writing its own copy: a venue's bar-length
/// names, its trade-side words and its ticker's field names.
@Suite("Shared venue decoding: interval codes, trade sides, ticker fields")
struct VenueDecodingHelpersTests {
    static let venue = AdapterDescriptor(
        id: "testvenue", displayName: "Test Venue", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.ticker], requestsPerSecond: 1, defaultBaseURL: "https://example.invalid",
        changeBasis: .rolling24h)
    static let btc = Market(base: "BTC", quote: "KRW")

    @Test("interval codes: the lengths offered come shortest first, a length left out has no code")
    func intervalCodes() {
        let codes = CandleIntervalCodes([.oneDay: "1D", .oneMinute: "1", .thirtyMinutes: "30", .fiveMinutes: "5"])
        #expect(codes.intervals == [.oneMinute, .fiveMinutes, .thirtyMinutes, .oneDay])
        #expect(codes[.oneDay] == "1D")
        #expect(codes[.tenMinutes] == nil)
        #expect(CandleIntervalCodes([.oneHour: 3600])[.oneHour] == 3600)
    }

    @Test("trade side: the venue's words for a taker buy and sell, swapped for a maker-side venue")
    func tradeSide() throws {
        let rows = JSONCursor(try JSONParser.parse(#"["b", "s", "buy", "up\#(String(repeating: "x", count: 50))"]"#))
        #expect(try TradeSide(rows[0], buy: "b", sell: "s") == .buy)
        #expect(try TradeSide(rows[1], buy: "b", sell: "s") == .sell)
        #expect(try TradeSide(rows[2], buy: "sell", sell: "buy") == .sell)
        #expect(
            throws: JSONDecodingError(path: "$[3]", reason: "unknown side 'up\(String(repeating: "x", count: 38))'")
        ) { try TradeSide(rows[3], buy: "buy", sell: "sell") }
    }

    @Test("ticker fields: named change and percent, exact, with the descriptor's basis and the venue time")
    func namedChange() throws {
        let ticker = JSONCursor(
            try JSONParser.parse(
                #"{"c":"80630000.0","o":"79934000","h":"81500000","l":"77734000","p":"79999000","d":"-435000","dp":"-0.54","v":"1368.01423432","qv":"109282011238.50126","t":1723104735027}"#
            ))
        let fields = TickerFields(
            last: "c", open: "o", high: "h", low: "l", previousClose: "p", change: .named(change: "d", percent: "dp"),
            baseVolume: "v", quoteVolume: "qv", time: "t")
        let quote = try Quote(ticker, fields: fields, market: Self.btc, venue: Self.venue)
        #expect(
            quote
                == Quote(
                    exchange: "testvenue", market: Self.btc, last: 80_630_000, open: 79_934_000, high: 81_500_000,
                    low: 77_734_000, previousClose: 79_999_000, change: -435_000,
                    changePercent: Decimal(string: "-0.54"), changeBasis: .rolling24h,
                    baseVolume: Decimal(string: "1368.01423432"), quoteVolume: Decimal(string: "109282011238.50126"),
                    timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_027)))
    }

    @Test("ticker fields: no change sent, so it is last - open, exact; fields not named stay nil")
    func changeSinceOpen() throws {
        let ticker = JSONCursor(try JSONParser.parse(#"{"last":"3406000","first":"3390000"}"#))
        let fields = TickerFields(
            last: "last", open: "first", high: nil, low: nil, change: .sinceOpen, baseVolume: nil, quoteVolume: nil,
            time: nil)
        let quote = try Quote(ticker, fields: fields, market: Self.btc, venue: Self.venue)
        #expect(quote.change == 16_000)
        #expect(quote.changePercent == Decimal(string: "0.472"))
        #expect(quote.high == nil && quote.previousClose == nil && quote.timestamp == nil)
        #expect(quote.changeBasis == .rolling24h)
    }

    @Test("ticker fields: the first bad field, in field order, is the one reported")
    func firstBadField() throws {
        let ticker = JSONCursor(try JSONParser.parse(#"{"last":"1","high":"x","vol":"y"}"#))
        let fields = TickerFields(
            last: "last", open: nil, high: "high", low: nil, change: .sinceOpen, baseVolume: "vol", quoteVolume: nil,
            time: nil)
        do {
            _ = try Quote(ticker, fields: fields, market: Self.btc, venue: Self.venue)
            Issue.record("a ticker with a bad high decoded")
        } catch {
            #expect(error.path == "$.high")
        }
    }

    @Test("a venue symbol names its market through the router; an unknown one fails quoting 40 characters")
    func symbol() throws {
        let router: (String) -> Market? = { $0 == "BTCKRW" ? Self.btc : nil }
        let ticker = JSONCursor(
            try JSONParser.parse(#"{"s":"BTCKRW","t":"\#(String(repeating: "Z", count: 45))"}"#))
        #expect(try ticker.market(symbol: "s", router) == Self.btc)
        #expect(throws: JSONDecodingError(path: "$.t", reason: "unknown symbol '\(String(repeating: "Z", count: 40))'"))
        {
            try ticker.market(symbol: "t", router)
        }
    }
}
