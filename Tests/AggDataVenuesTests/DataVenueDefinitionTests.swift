import AggCore
import AggDataVenues
import Testing

/// A venue file is checked strictly, and its first problem is named by its JSON path.
@Suite("data venue definitions")
struct DataVenueDefinitionTests {
    /// A small valid definition; each bad case replaces one piece of it.
    static func definition(
        id: String = #""simple""#, symbol: String = #"{"template": "{base}_{quote}", "case": "lower"}"#,
        time: String = #"{"format": "epochMilliseconds"}"#, baseURL: String = #""https://api.example.com""#,
        ticker: String = #"{"path": "/ticker?pair={symbol}", "item": "$.data", "fields": {"last": "$.last"}}"#,
        extra: String = ""
    ) -> String {
        #"{"format": 1, "id": \#(id), "name": "Simple", "country": "KR", "homeCurrency": "KRW", "#
            + #""quoteCurrencies": ["KRW"], "baseURL": \#(baseURL), "requestsPerSecond": 5, "#
            + #""symbol": \#(symbol), "time": \#(time), "ticker": \#(ticker)\#(extra)}"#
    }

    @Test("a valid definition becomes a descriptor with the capabilities its endpoints give")
    func valid() throws {
        let parsed = try DataVenueDefinition.parse(
            Array(
                Self.definition(
                    extra: #", "errors": {"code": "$.code", "successCodes": ["0"], "notListed": [40001, "40002"]}"#
                        + #", "quotaHeader": "rateLimit""#
                ).utf8))
        #expect(parsed.descriptor.id == "simple")
        #expect(parsed.descriptor.capabilities == [.ticker])
        #expect(parsed.descriptor.requestsPerSecond == 5)
        #expect(parsed.descriptor.defaultBaseURL == "https://api.example.com")
        #expect(parsed.descriptor.notListedCodes == ["40001", "40002"])
        #expect(parsed.descriptor.quotaHeader == .rateLimit)
        #expect(parsed.symbol.symbol(for: Market(base: "BTC", quote: "KRW")) == "btc_krw")
        #expect(parsed.errors.successCodes == ["0"])
    }

    @Test(
        "each bad piece is refused at its path",
        arguments: [
            (definition(id: #""Bad-Id""#), "$.id: 'Bad-Id' is not 1 to 20 lower-case letters and digits"),
            (
                definition(symbol: #"{"template": "{base}{base}", "case": "lower"}"#),
                "$.symbol.template: expected {base} and {quote} once each, with only letters, digits and -_.~: between them"
            ),
            (
                definition(symbol: #"{"template": "{base}/{quote}"}"#),
                "$.symbol.template: expected {base} and {quote} once each, with only letters, digits and -_.~: between them"
            ),
            (
                definition(symbol: #"{"template": "{base}{quote}", "case": "title"}"#),
                "$.symbol.case: 'title' is not one of: upper, lower"
            ),
            (
                definition(time: #"{"format": "local"}"#),
                #"$.time.zone: a local time needs its zone, such as "KST" or "+09:00""#
            ),
            (
                definition(time: #"{"format": "local", "zone": "Mars"}"#),
                "$.time.zone: 'Mars' is not a zone: one of HKT, JST, KST, SGT, UTC or ±HH:MM"
            ),
            (
                definition(time: #"{"format": "rfc2822"}"#),
                "$.time.format: 'rfc2822' is not one of: epochMilliseconds, epochSeconds, iso8601, local"
            ),
            (
                definition(baseURL: #""ftp://x""#),
                "$.baseURL: expected an http:// or https:// URL with a host and no user info, query or fragment"
            ),
            (definition(baseURL: #""https://""#), "$.baseURL: expected \(BaseURL.requirement)"),
            (definition(baseURL: #""https://api.x.com/v2?x=1""#), "$.baseURL: expected \(BaseURL.requirement)"),
            (
                definition(ticker: #"{"path": "/ticker", "fields": {"last": "$.last"}}"#),
                "$.ticker.path: the path must name the market with {symbol}, or {base} and {quote}"
            ),
            (
                definition(ticker: #"{"path": "/t/{symbol} x", "fields": {"last": "$.last"}}"#),
                "$.ticker.path: expected a path starting with / of letters, digits and -_.~/?&=,: with only the placeholders {symbol} {base} {quote}"
            ),
            (
                definition(ticker: #"{"path": "/t/{symbol}", "fields": {"last": "data.last"}}"#),
                "$.ticker.fields.last: 'data.last' is not a JSON path such as $.data[0].last"
            ),
            (
                definition(ticker: #"{"path": "/t/{symbol}", "fields": {"price": "$.p"}}"#),
                "$.ticker.fields.price: unknown key 'price'; expected one of: last, open, high, low, previousClose, change, changePercent, changeFraction, baseVolume, quoteVolume, time"
            ),
            (
                definition(ticker: #"{"path": "/t/{symbol}", "fields": {}}"#),
                "$.ticker.fields.last: expected a JSON path"
            ),
            (
                definition(extra: #", "errors": {"notListed": ["5"]}"#),
                "$.errors.notListed: not-listed codes need the code's path in errors.code"
            ),
            (
                definition(extra: #", "format2": 1"#),
                "$.format2: unknown key 'format2'; expected one of: "
                    + "format, id, name, country, homeCurrency, quoteCurrencies, baseURL, requestsPerSecond, quotaHeader, "
                    + "changeBasis, symbol, time, errors, ticker, allTickers, markets, stream, transferStatus, takerFee, note"
            ),
            ("{\"format\": 2}", "$.format: this agg reads format 1, not 2"),
            (
                definition().replacing(#""format": 1"#, with: #""format": "1""#),
                "$.format: expected the number 1, found a string"
            ),
            (
                definition(ticker: #"{"path": "/../../../etc/{symbol}", "fields": {"last": "$.last"}}"#),
                "$.ticker.path: a path may not hold '.' or '..' segments: it stays under the base URL's path"
            ),
            (
                definition(ticker: #"{"path": "/api/./t/{symbol}", "fields": {"last": "$.last"}}"#),
                "$.ticker.path: a path may not hold '.' or '..' segments: it stays under the base URL's path"
            ),
            (
                definition(extra: #", "markets": {"path": "/v1/..", "items": "$", "symbol": "$.s"}"#),
                "$.markets.path: a path may not hold '.' or '..' segments: it stays under the base URL's path"
            ),
            (
                definition(extra: #", "allTickers": {"path": "/x/../{quote}", "fields": {"last": "$.l"}}"#),
                "$.allTickers.path: a path may not hold '.' or '..' segments: it stays under the base URL's path"
            ),
            (
                definition(extra: #", "id": "bithumb""#),
                "$.id: the key 'id' is given twice in one object"
            ),
            (
                definition(ticker: #"{"path": "/t/{symbol}", "fields": {"last": "$.a", "last": "$.b"}}"#),
                "$.ticker.fields.last: the key 'last' is given twice in one object"
            ),
            (
                definition(
                    extra: #", "takerFee": {"rate": "1", "source": "https://x.example/fees", "asOf": "2026-09-22"}"#),
                "$.takerFee.rate: '1' is not a taker rate from 0 up to 1 (0.002 is 0.2 %)"
            ),
            (
                definition(
                    extra: #", "takerFee": {"rate": "2e-3", "source": "https://x.example/fees", "asOf": "2026-09-22"}"#),
                "$.takerFee.rate: '2e-3' has an exponent: a decimal written as text must be written out in full"
            ),
            (
                definition(
                    extra: #", "takerFee": {"rate": "0.002", "source": "https://x.example/fees", "asOf": "22.09.2026"}"#
                ),
                "$.takerFee.asOf: expected a day, YYYY-MM-DD"
            ),
            (
                definition(extra: #", "transferStatus": {"path": "/assets", "items": "$"}"#),
                "$.transferStatus.coin: expected a JSON path"
            ),
            (
                definition(extra: #", "transferStatus": {"path": "/assets", "coin": "$.id", "deposit": "$.d"}"#),
                "$.transferStatus.open: name the values that mean open when deposit or withdraw is given"
            ),
            ("[1", "$: not JSON: "),
        ])
    func refused(text: String, expected: String) {
        #expect {
            _ = try DataVenueDefinition.parse(Array(text.utf8))
        } throws: { error in
            guard let error = error as? DataVenueDefinitionError else { return false }
            return expected.hasSuffix(": ") ? error.description.hasPrefix(expected) : error.description == expected
        }
    }

    @Test("dots inside a segment, or in the query, are not a path segment: accepted")
    func dotsInsideSegments() throws {
        let parsed = try DataVenueDefinition.parse(
            Array(
                Self.definition(ticker: #"{"path": "/v1.2/t..x/{symbol}?a=..", "fields": {"last": "$.last"}}"#)
                    .utf8))
        #expect(parsed.ticker.path == "/v1.2/t..x/{symbol}?a=..")
    }

    @Test("symbol templates name markets both ways")
    func templates() throws {
        let concatenated = try #require(SymbolTemplate("{base}{quote}", letterCase: .upper))
        #expect(concatenated.symbol(for: Market(base: "BTC", quote: "USDT")) == "BTCUSDT")
        #expect(concatenated.market(from: "BTCUSDT", quote: "USDT") == Market(base: "BTC", quote: "USDT"))
        #expect(concatenated.market(from: "BTCUSDT", quote: "USD") == nil)
        #expect(concatenated.market(from: "USDT", quote: "USDT") == nil)
        let dashed = try #require(SymbolTemplate("{quote}{base}", letterCase: .upper))
        #expect(dashed.market(from: "USDTBTC", quotes: ["USD", "USDT"]) == Market(base: "BTC", quote: "USDT"))
        let lower = try #require(SymbolTemplate("{base}_{quote}", letterCase: .lower))
        #expect(lower.symbol(for: Market(base: "1INCH", quote: "KRW")) == "1inch_krw")
        #expect(lower.market(from: "1inch_krw", quote: "KRW") == Market(base: "1INCH", quote: "KRW"))
        #expect(lower.market(from: "b%2ftc_krw", quote: "KRW") == nil)
    }
}
