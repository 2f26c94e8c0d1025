import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Korbit

/// Rule 1 of issue 20 for Korbit's pair list (`/v2/currencyPairs`, read by `agg search`,
/// `agg exchanges` and the premium board): each row breaks xrp_krw's entry of the recorded
/// answer one way; the list still gives every other pair, exactly, and reports the broken entry
/// once, with its market and the JSON path of the value that failed.
@Suite("Korbit: one bad entry of the pair list costs that entry")
struct KorbitBulkEntryTests {
    static let file = "korbit/currencyPairs.json"
    static let xrp = Market(base: "XRP", quote: "KRW")

    static func list(_ body: String) async -> MarketList {
        await AdapterTestBed(KorbitAdapter.self).adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole: 200 launched pairs")
    func whole() async throws {
        let list = await Self.list(try JSONDamage.recorded(Self.file))
        #expect(list.failures == [] && list.skipped == [])
        #expect(list.listings.count == 200)
        #expect(
            Array(list.listings.prefix(3)) == [
                MarketListing(exchange: "korbit", market: Market(base: "BTC", quote: "KRW"), venueSymbol: "btc_krw"),
                MarketListing(exchange: "korbit", market: Market(base: "ETH", quote: "KRW"), venueSymbol: "eth_krw"),
                MarketListing(exchange: "korbit", market: Self.xrp, venueSymbol: "xrp_krw"),
            ])
    }

    /// The member of xrp_krw's entry damaged, its new value (`nil`: removed), the entry's name
    /// and market in the report, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, market: Market?, reason: String)] = [
        ("symbol", nil, "[2]", nil, "expected a string, found nothing"),
        ("symbol", .number("2"), "2", nil, "expected a string, found a number"),
        ("status", .bool(false), "xrp_krw", xrp, "expected a string, found a boolean"),
        ("symbol", "x\"rp_krw", "x\"rp_krw", nil, "unknown market code 'x\"rp_krw'"),
        ("symbol", "xrp\u{85}_krw", "xrp\u{85}_krw", nil, "unknown market code 'xrp\u{85}_krw'"),
        ("symbol", "_krw", "_krw", nil, "unknown market code '_krw'"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, market: Market?, reason: String) async throws {
        let whole = await Self.list(try JSONDamage.recorded(Self.file))
        let body = try JSONDamage.recorded(Self.file, at: [.key("data"), .index(2), .key(key)], with: value)
        let list = await Self.list(body)
        #expect(list.failures == [])
        #expect(list.listings == whole.listings.filter { $0.market != Self.xrp })
        #expect(list.listings.count == 199)
        #expect(
            list.skipped == [
                SkippedEntry(venue: "korbit", entry: entry, market: market, path: "$.data[2].\(key)", reason: reason)
            ])
    }
}
