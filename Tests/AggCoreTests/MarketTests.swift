import AggCore
import Testing

@Suite("Market and AssetCode")
struct MarketTests {
    static let parsed: [(text: String, defaultQuote: String?, market: Market)] = [
        ("btc", "KRW", Market(base: "BTC", quote: "KRW")),
        ("BTC", "KRW", Market(base: "BTC", quote: "KRW")),
        ("BTC/usdt", "KRW", Market(base: "BTC", quote: "USDT")),
        ("BTC/usdt", nil, Market(base: "BTC", quote: "USDT")),
        ("eth/btc", "KRW", Market(base: "ETH", quote: "BTC")),
        ("1INCH", "KRW", Market(base: "1INCH", quote: "KRW")),
        ("1inch/krw", nil, Market(base: "1INCH", quote: "KRW")),
        ("btc", "USD", Market(base: "BTC", quote: "USD")),
        ("ABCDEFGHIJKLMNO", "KRW", Market(base: "ABCDEFGHIJKLMNO", quote: "KRW")),
        ("a/ABCDEFGHIJKLMNO", nil, Market(base: "A", quote: "ABCDEFGHIJKLMNO")),
    ]

    @Test("parses a symbol", arguments: parsed)
    func parses(text: String, defaultQuote: String?, market: Market) throws {
        #expect(try Market.parse(text, defaultQuote: defaultQuote) == market)
    }

    static let rejected: [String] = [
        "../x", "B%2FTC", "B TC", "", "/KRW", "BTC/", "/", "A/B/C", "A/B/C/D", "ABCDEFGHIJKLMNOP",
        "BTC/ABCDEFGHIJKLMNOP", "비트", "BTC/원", "BTC-KRW", "KRW-BTC", " BTC", "BTC ", "BTC\n",
        "BTC\u{0}", "B.TC",
        "BTC?x=1", "ß", "straße", "ﬁ", "ǆ", "ıNCH", "ＢＴＣ", "BTC/ß",
    ]

    @Test("rejects a symbol that is not letters and digits", arguments: rejected)
    func rejects(text: String) {
        let error = #expect(throws: AggError.self) { try Market.parse(text, defaultQuote: "KRW") }
        guard case .invalidSymbol(let shown, let reason)? = error else {
            Issue.record("expected invalidSymbol, got \(String(describing: error))")
            return
        }
        #expect(shown == text)
        #expect(!reason.isEmpty)
        #expect(error?.isUsageError == true)
    }

    @Test("a bare coin without a default quote asks for one")
    func needsQuote() {
        let error = #expect(throws: AggError.self) { try Market.parse("btc", defaultQuote: nil) }
        #expect(error == .invalidSymbol("btc", reason: "name the quote currency, as in BTC/KRW"))
    }

    @Test("the reason says what is wrong")
    func reasons() {
        #expect(throws: AggError.invalidSymbol("/KRW", reason: "the code is empty")) {
            try Market.parse("/KRW", defaultQuote: nil)
        }
        #expect(throws: AggError.invalidSymbol("A/B/C", reason: "a symbol is BASE or BASE/QUOTE")) {
            try Market.parse("A/B/C", defaultQuote: nil)
        }
        #expect(
            throws: AggError.invalidSymbol(
                "ABCDEFGHIJKLMNOP", reason: "codes are at most 15 letters and digits")
        ) {
            try Market.parse("ABCDEFGHIJKLMNOP", defaultQuote: "KRW")
        }
        #expect(
            throws: AggError.invalidSymbol("B TC", reason: "codes hold only letters A-Z and digits 0-9")
        ) {
            try Market.parse("B TC", defaultQuote: "KRW")
        }
    }

    @Test("markets print and sort as BASE/QUOTE")
    func ordering() {
        let markets = [
            Market(base: "ETH", quote: "KRW"), Market(base: "BTC", quote: "USDT"),
            Market(base: "BTC", quote: "KRW"),
        ]
        #expect(markets.sorted().map(\.description) == ["BTC/KRW", "BTC/USDT", "ETH/KRW"])
    }

    static let currencies: [(text: String, code: String?)] = [
        ("usd", "USD"), ("KRW", "KRW"), ("eUr", "EUR"), ("", nil), ("US", nil), ("USDT", nil),
        ("U5D", nil),
        ("123", nil), ("US D", nil), ("usd ", nil), (" usd", nil), ("원화", nil), ("비트코", nil),
        ("ÉUR", nil),
        ("ßX", nil), ("ﬁX", nil), ("ＵＳＤ", nil), ("U-D", nil),
    ]

    @Test("validates a currency code", arguments: currencies)
    func currency(text: String, code: String?) throws {
        if let code {
            #expect(try AssetCode.validateCurrency(text) == code)
        } else {
            #expect(throws: AggError.invalidCurrency(text)) { try AssetCode.validateCurrency(text) }
        }
    }
}
