import AggCore
import AggDataVenues
import AggJSON
import AggTestKit
import Testing

/// Rule 1 of issue 20 for a data venue's market list, with the shipped GOPAX file and its sample
/// `/trading-pairs` answer: each row breaks XRP-KRW's entry one way; the list still gives every
/// other pair, exactly, and reports the broken entry once, with its market and JSON path.
@Suite("GOPAX (data venue): one bad entry of the market list costs that entry")
struct GopaxBulkEntryTests {
    static let file = "gopax/trading_pairs.json"
    static let xrp = Market(base: "XRP", quote: "KRW")

    static func list(_ body: String) async throws -> MarketList {
        let registration = try DataVenueLoader.load(file: DataVenueAdapterTests.gopaxFile) { .shippedFile(path: $0) }
        let adapter = registration.make(
            AdapterEnvironment(baseURL: "https://gopax.invalid", http: ScriptedHTTPClient(body: body)))
        return await adapter.marketList(quotedIn: nil)
    }

    /// The sample list: every pair, in KRW and BTC.
    static let recorded = [
        MarketListing(exchange: "gopax", market: Market(base: "ETH", quote: "KRW"), venueSymbol: "ETH-KRW"),
        MarketListing(exchange: "gopax", market: Market(base: "BTC", quote: "KRW"), venueSymbol: "BTC-KRW"),
        MarketListing(exchange: "gopax", market: xrp, venueSymbol: "XRP-KRW"),
        MarketListing(exchange: "gopax", market: Market(base: "ETH", quote: "BTC"), venueSymbol: "ETH-BTC"),
    ]

    @Test("the sample list answers whole")
    func whole() async throws {
        #expect(try await Self.list(try JSONDamage.recorded(Self.file)) == MarketList(listings: Self.recorded))
    }

    /// The member of XRP-KRW's entry damaged, its new value (`nil`: removed), the entry's name
    /// and market in the report, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, market: Market?, reason: String)] = [
        ("baseAsset", nil, "XRP-KRW", xrp, "expected a string, found nothing"),
        ("quoteAsset", .number("1"), "XRP-KRW", xrp, "expected a string, found a number"),
        ("name", nil, "[2]", nil, "expected a string or a number, found nothing"),
        ("baseAsset", "X\"RP", "XRP-KRW", xrp, "'X\"RP' is not a coin code"),
        ("baseAsset", "XR\u{7F}P", "XRP-KRW", xrp, "'XR\u{7F}P' is not a coin code"),
        ("baseAsset", "", "XRP-KRW", xrp, "'' is not a coin code"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, market: Market?, reason: String) async throws {
        let list = try await Self.list(try JSONDamage.recorded(Self.file, at: [.index(2), .key(key)], with: value))
        #expect(list.failures == [])
        #expect(list.listings == Self.recorded.filter { $0.market != Self.xrp })
        #expect(
            list.skipped == [
                SkippedEntry(venue: "gopax", entry: entry, market: market, path: "$[2].\(key)", reason: reason)
            ]
        )
    }

    @Test("all tickers: an entry whose symbol does not read is skipped with its path; the others answer")
    func allTickersSymbol() async throws {
        let registration = try DataVenueLoader.load(file: DataVenueAdapterTests.gopaxFile) { .shippedFile(path: $0) }
        func answer(_ body: String) async throws -> BulkAnswer<Quote> {
            try await registration.make(
                AdapterEnvironment(baseURL: "https://gopax.invalid", http: ScriptedHTTPClient(body: body))
            ).allQuotesAnswer(quotedIn: "KRW")
        }
        let file = "gopax/trading_pairs_stats.json"
        let whole = try await answer(try JSONDamage.recorded(file))
        #expect(whole.skipped == [] && whole.values.count == 5 && whole.values.contains { $0.market == Self.xrp })
        let damaged = try await answer(try JSONDamage.recorded(file, at: [.index(2), .key("name")], with: .null))
        #expect(damaged.values == whole.values.filter { $0.market != Self.xrp })
        #expect(
            damaged.skipped == [
                SkippedEntry(
                    venue: "gopax", entry: "[2]", market: nil, path: "$[2].name",
                    reason: "expected a string or a number, found null")
            ])
    }
}
