import AggCore
import AggJSON
import AggTestKit
import AggVenues
import Foundation
import Testing

/// Rule 1 of issue 20: in a bulk answer, one bad entry costs that entry. Each row damages one
/// entry of a venue's recorded all-tickers answer; the answer must still give every other quote,
/// and report the damaged entry once, with its market and the path of the value that failed.
@Suite("One bad entry costs that entry")
struct BulkAnswerTests {
    /// Where one venue's recorded bulk answer is, and the entry the rows damage.
    struct Recording: Sendable, CustomStringConvertible {
        var venue: String
        var file: String
        var currency: String
        /// The path of the damaged entry from the document's root.
        var entry: [PathStep]
        /// How the failure's path names the entry (`$.data.XRP`, `$[3]`).
        var entryPath: String
        var market: Market
        var priceKey: String
        /// How many quotes the undamaged answer gives in `currency`.
        var count: Int

        var description: String { venue }
    }

    typealias PathStep = JSONDamage.Step

    static let bithumb = Recording(
        venue: "bithumb", file: "bithumb/ticker_ALL_KRW.json", currency: "KRW", entry: [.key("data"), .key("XRP")],
        entryPath: "$.data.XRP", market: Market(base: "XRP", quote: "KRW"), priceKey: "closing_price", count: 480)
    static let upbit = Recording(
        venue: "upbit", file: "upbit/ticker_all_KRW.json", currency: "KRW", entry: [.index(3)], entryPath: "$[3]",
        market: Market(base: "XRP", quote: "KRW"), priceKey: "trade_price", count: 153)
    static let binance = Recording(
        venue: "binance", file: "binance/ticker_24hr_all.json", currency: "USDT", entry: [.index(12)],
        entryPath: "$[12]", market: Market(base: "XRP", quote: "USDT"), priceKey: "lastPrice", count: 707)

    static let okx = Recording(
        venue: "okx", file: "okx/tickers_SPOT.json", currency: "USDT", entry: [.key("data"), .index(2)],
        entryPath: "$.data[2]", market: Market(base: "XRP", quote: "USDT"), priceKey: "last", count: 199)

    static let korbit = Recording(
        venue: "korbit", file: "korbit/tickers_all.json", currency: "KRW", entry: [.key("data"), .index(2)],
        entryPath: "$.data[2]", market: Market(base: "XRP", quote: "KRW"), priceKey: "close", count: 224)
    static let coinone = Recording(
        venue: "coinone", file: "coinone/ticker_new_KRW.json", currency: "KRW", entry: [.key("tickers"), .index(2)],
        entryPath: "$.tickers[2]", market: Market(base: "XRP", quote: "KRW"), priceKey: "last", count: 220)

    /// A damaged price (`nil`: the member removed) and the reason its failure gives.
    static let damage: [(recording: Recording, value: JSONValue?, reason: String)] = [
        (bithumb, "1,234", "'1,234' is not a decimal number"),
        (bithumb, "", "an empty number"),
        (bithumb, .null, "expected a decimal, found null"),
        (bithumb, "NaN", "'NaN' is not a decimal number"),
        (
            bithumb, .string(String(repeating: "1", count: 41)),
            "'11111111111111111111…(41 characters)' is out of the range of exact decimals"
        ),
        (bithumb, "0", "'0' is not a positive price"),
        (bithumb, "-77777367", "'-77777367' is not a positive price"),
        (bithumb, "1e3", "'1e3' has an exponent: a decimal written as text must be written out in full"),
        (bithumb, "00790.4", "'00790.4' has leading zeros"),
        (bithumb, "1000000000000000", "'1000000000000000' is beyond any price (10^15 or more)"),
        (bithumb, nil, "expected a decimal, found nothing"),
        (upbit, "790.4", "expected a number, found a string"),
        (upbit, .null, "expected a number, found null"),
        (upbit, .number("0"), "'0' is not a positive price"),
        (upbit, .number("-5.5"), "'-5.5' is not a positive price"),
        (
            upbit, .number(String(repeating: "9", count: 41)),
            "'99999999999999999999…(41 characters)' is out of the range of exact decimals"
        ),
        (upbit, nil, "expected a number, found nothing"),
        (binance, "1,234", "'1,234' is not a decimal number"),
        (binance, "NaN", "'NaN' is not a decimal number"),
        (binance, "0", "'0' is not a positive price"),
        (binance, "1E3", "'1E3' has an exponent: a decimal written as text must be written out in full"),
        (okx, "", "an empty number"),
        (korbit, "1,234", "'1,234' is not a decimal number"),
        (korbit, "0", "'0' is not a positive price"),
        (coinone, "NaN", "'NaN' is not a decimal number"),
        (coinone, "-1", "'-1' is not a positive price"),
        (okx, "-0.5", "'-0.5' is not a positive price"),
        (okx, "1e-3", "'1e-3' has an exponent: a decimal written as text must be written out in full"),
    ]

    @Test("a damaged price skips its entry only, naming its market and path", arguments: damage)
    func damagedPrice(recording: Recording, value: JSONValue?, reason: String) async throws {
        let body = try Self.damaged(recording, at: recording.entry + [.key(recording.priceKey)], with: value)
        let answer = try await Self.adapter(recording.venue, body: body).allQuotesAnswer(quotedIn: recording.currency)
        #expect(answer.values.count == recording.count - 1)
        #expect(!answer.values.contains { $0.market == recording.market })
        #expect(answer.values.contains { $0.market.base == "BTC" })
        #expect(
            answer.skipped == [
                SkippedEntry(
                    venue: recording.venue, entry: Self.entryName(recording), market: recording.market,
                    path: recording.entryPath + "." + recording.priceKey, reason: reason)
            ])
    }

    @Test("an odd market code skips its entry only", arguments: [upbit, binance])
    func oddSymbol(recording: Recording) async throws {
        let key = recording.venue == "upbit" ? "market" : "symbol"
        let code = recording.venue == "upbit" ? "KRW-A\"B" : "A\"BUSDT"
        let body = try Self.damaged(recording, at: recording.entry + [.key(key)], with: .string(code))
        let answer = try await Self.adapter(recording.venue, body: body).allQuotesAnswer(quotedIn: recording.currency)
        #expect(answer.values.count == recording.count - 1)
        let expected =
            recording.venue == "upbit" ? "unknown market code 'KRW-A\"B'" : "unknown symbol 'A\"BUSDT'"
        #expect(
            answer.skipped == [
                SkippedEntry(
                    venue: recording.venue, entry: code, market: nil, path: recording.entryPath + "." + key,
                    reason: expected)
            ])
    }

    @Test("Bithumb's ALL: an odd coin code or an entry that is not a ticker skips that entry only")
    func bithumbOddEntries() async throws {
        var body = try Self.damaged(Self.bithumb, at: [.key("data"), .key("A\"B")], with: ["closing_price": "1"])
        body = try Self.damaged(body, at: [.key("data"), .key("ETH")], with: "delisted")
        let answer = try await Self.adapter("bithumb", body: body).allQuotesAnswer(quotedIn: "KRW")
        #expect(answer.values.count == 479)
        #expect(
            answer.skipped == [
                SkippedEntry(
                    venue: "bithumb", entry: "ETH", market: Market(base: "ETH", quote: "KRW"), path: "$.data.ETH",
                    reason: "expected a ticker object, found a string"),
                SkippedEntry(
                    venue: "bithumb", entry: "A\"B", market: nil, path: "$.data.A\"B",
                    reason: "'A\"B' is not a coin code"),
            ])
    }

    @Test("Kraken's all tickers: a bad last price costs its pair only")
    func kraken() async throws {
        let file = "kraken/Ticker_all.json"
        let recorded = String(decoding: try Fixtures.bytes(file), as: UTF8.self)
        let whole = try await Self.adapter("kraken", body: recorded).allQuotesAnswer(quotedIn: "USD")
        #expect(whole.skipped.isEmpty)
        let body = try Self.damaged(recorded, at: [.key("result"), .key("XXRPZUSD"), .key("c")], with: ["-1", "5"])
        let answer = try await Self.adapter("kraken", body: body).allQuotesAnswer(quotedIn: "USD")
        #expect(answer.values.count == whole.values.count - 1)
        #expect(
            answer.skipped == [
                SkippedEntry(
                    venue: "kraken", entry: "XXRPZUSD", market: Market(base: "XRP", quote: "USD"),
                    path: "$.result.XXRPZUSD.c[0]", reason: "'-1' is not a positive price")
            ])
    }

    /// The issue's repro: BTC still answers when XRP's entry is bad, and XRP's own error names
    /// its path instead of failing every coin with it.
    @Test(
        "a batch answers its good markets and gives the bad one its precise error", arguments: [bithumb, upbit, okx])
    func batch(recording: Recording) async throws {
        let body = try Self.damaged(recording, at: recording.entry + [.key(recording.priceKey)], with: "1,234")
        let btc = Market(base: "BTC", quote: recording.currency)
        let adapter = try Self.adapter(recording.venue, body: body)
        let results = await adapter.quotes(for: [btc, recording.market])
        let quote = try #require(try? results[btc]?.get())
        #expect(quote.market == btc)
        let reason =
            recording.venue == "upbit" ? "expected a number, found a string" : "'1,234' is not a decimal number"
        #expect(
            results[recording.market].flatMap { result in
                if case .failure(let error) = result { return error } else { return nil }
            }
                == AggError.decoding(
                    venue: recording.venue, path: recording.entryPath + "." + recording.priceKey, detail: reason))
    }

    @Test("a venue time in 2100 costs its entry", arguments: [upbit, okx])
    func futureTime(recording: Recording) async throws {
        let key = recording.venue == "okx" ? "ts" : "timestamp"
        let time: JSONValue = recording.venue == "okx" ? "4102444800000" : .number("4102444800000")
        let body = try Self.damaged(recording, at: recording.entry + [.key(key)], with: time)
        let answer = try await Self.adapter(recording.venue, body: body).allQuotesAnswer(quotedIn: recording.currency)
        #expect(answer.values.count == recording.count - 1)
        #expect(
            answer.skipped.map(\.reason) == ["2100-01-01T00:00:00.000Z is more than a day in the future"])
        #expect(answer.skipped.map(\.path) == [recording.entryPath + "." + key])
    }

    // MARK: - Helpers

    static func entryName(_ recording: Recording) -> String {
        switch recording.venue {
        case "bithumb": recording.market.base
        case "upbit": "KRW-" + recording.market.base
        case "okx": recording.market.base + "-" + recording.market.quote
        case "korbit": "xrp_krw"
        case "coinone": "xrp"
        default: recording.market.base + recording.market.quote
        }
    }

    static func adapter(_ venue: String, body: String) throws -> any VenueAdapter {
        try AdapterRegistry.standard.makeAdapter(
            id: venue,
            environment: AdapterEnvironment(baseURL: "https://bulk.test", http: ScriptedHTTPClient(body: body)))
    }

    static func damaged(_ recording: Recording, at path: [PathStep], with value: JSONValue?) throws -> String {
        try damaged(String(decoding: try Fixtures.bytes(recording.file), as: UTF8.self), at: path, with: value)
    }

    static func damaged(_ body: String, at path: [PathStep], with value: JSONValue?) throws -> String {
        try JSONDamage.damaged(body, at: path, with: value)
    }
}

/// Rule 2 of issue 20 for trades: a trade's price and amount are above zero; one that is not
/// fails the answer at its path instead of reaching `agg trades`.
@Suite("Trades have positive prices and sizes")
struct TradeBoundsTests {
    static let rows: [(venue: String, body: String, error: AggError)] = [
        (
            "binance", #"[{"price":"1","qty":"0","time":1723104735027,"isBuyerMaker":true}]"#,
            .decoding(venue: "binance", path: "$[0].qty", detail: "'0' is not a positive size")
        ),
        (
            "binance", #"[{"price":"-3","qty":"1","time":1723104735027,"isBuyerMaker":true}]"#,
            .decoding(venue: "binance", path: "$[0].price", detail: "'-3' is not a positive price")
        ),
        (
            "upbit",
            #"[{"trade_price":0,"trade_volume":1,"timestamp":1723104735027,"ask_bid":"ASK","sequential_id":1}]"#,
            .decoding(venue: "upbit", path: "$[0].trade_price", detail: "'0' is not a positive price")
        ),
    ]

    @Test("a trade priced or sized zero or less fails at its path", arguments: rows)
    func bounds(venue: String, body: String, error: AggError) async throws {
        let adapter = try BulkAnswerTests.adapter(venue, body: body)
        let market = Market(base: "BTC", quote: venue == "upbit" ? "KRW" : "USDT")
        await #expect(throws: error) { _ = try await adapter.trades(for: market, limit: 10) }
    }
}

/// Rule 2 of issue 20 for candles: open, high, low and close above zero, volume zero or more.
@Suite("Candles have positive prices")
struct CandleBoundsTests {
    static let rows: [(body: String, error: AggError)] = [
        (
            #"[[1723104000000,"0","2","1","1.5","10",1723104059999,"15",3,"1","1","0"]]"#,
            .decoding(venue: "binance", path: "$[0][1]", detail: "'0' is not a positive price")
        ),
        (
            #"[[1723104000000,"1","2","1","1.5","-10",1723104059999,"15",3,"1","1","0"]]"#,
            .decoding(venue: "binance", path: "$[0][5]", detail: "'-10' is negative")
        ),
    ]

    @Test("a bar priced zero or less, or with a negative volume, fails at its path", arguments: rows)
    func bounds(body: String, error: AggError) async throws {
        let adapter = try BulkAnswerTests.adapter("binance", body: body)
        await #expect(throws: error) {
            _ = try await adapter.candles(for: Market(base: "BTC", quote: "USDT"), interval: .oneMinute, limit: 10)
        }
    }
}
