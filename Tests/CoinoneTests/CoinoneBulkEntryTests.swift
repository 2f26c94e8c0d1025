import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Coinone

/// Rule 1 of issue 20 for Coinone's market list (`/public/v2/markets/KRW`, read by `agg search`
/// and `agg exchanges`): each row breaks XRP's entry of the recorded answer one way; the list
/// still gives every other market, exactly, and reports the broken entry once, with its market
/// and the JSON path of the value that failed.
@Suite("Coinone: one bad entry of the market list costs that entry")
struct CoinoneBulkEntryTests {
    static let file = "coinone/markets_KRW.json"
    static let xrp = Market(base: "XRP", quote: "KRW")

    static func list(_ body: String) async -> MarketList {
        await AdapterTestBed(CoinoneAdapter.self).adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole: 219 markets trading")
    func whole() async throws {
        let list = await Self.list(try JSONDamage.recorded(Self.file))
        #expect(list.failures == [] && list.skipped == [])
        #expect(list.listings.count == 219)
        #expect(
            Array(list.listings.prefix(3)) == [
                MarketListing(exchange: "coinone", market: Market(base: "BTC", quote: "KRW"), venueSymbol: "KRW/BTC"),
                MarketListing(exchange: "coinone", market: Market(base: "ETH", quote: "KRW"), venueSymbol: "KRW/ETH"),
                MarketListing(exchange: "coinone", market: Self.xrp, venueSymbol: "KRW/XRP"),
            ])
    }

    /// The member of XRP's entry damaged, its new value (`nil`: removed), the entry's name and
    /// market in the report, the path after `$.markets[2]`, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, market: Market?, at: String, reason: String)] =
        [
            ("target_currency", nil, "[2]", nil, ".target_currency", "expected a string, found nothing"),
            ("target_currency", .number("2"), "2", nil, ".target_currency", "expected a string, found a number"),
            ("quote_currency", .number("2"), "XRP", nil, ".quote_currency", "expected a string, found a number"),
            ("trade_status", "x", "XRP", xrp, ".trade_status", "'x' is not a whole number in range"),
            ("target_currency", "X\"RP", "X\"RP", nil, "", "unknown market 'X\"RP/KRW'"),
            ("target_currency", "X\u{7}RP", "X\u{7}RP", nil, "", "unknown market 'X\u{7}RP/KRW'"),
            ("target_currency", "", "", nil, "", "unknown market '/KRW'"),
        ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, market: Market?, at: String, reason: String)
        async throws
    {
        let whole = await Self.list(try JSONDamage.recorded(Self.file))
        let body = try JSONDamage.recorded(Self.file, at: [.key("markets"), .index(2), .key(key)], with: value)
        let list = await Self.list(body)
        #expect(list.failures == [])
        #expect(list.listings == whole.listings.filter { $0.market != Self.xrp })
        #expect(list.listings.count == 218)
        #expect(
            list.skipped == [
                SkippedEntry(venue: "coinone", entry: entry, market: market, path: "$.markets[2]" + at, reason: reason)
            ])
    }
}
