import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Kraken

/// Rule 1 of issue 20 for Kraken's pair list (`/0/public/AssetPairs`, read by `agg search` and
/// `agg exchanges`): each row breaks XXRPZUSD's entry of the recorded answer one way; the list
/// still gives every other pair, exactly, and reports the broken entry once, with its market
/// and the JSON path of the value that failed.
@Suite("Kraken: one bad entry of the pair list costs that entry")
struct KrakenBulkEntryTests {
    static let file = "kraken/AssetPairs.json"
    static let xrp = Market(base: "XRP", quote: "USD")

    static func list(_ body: String) async -> MarketList {
        await AdapterTestBed(KrakenAdapter.self).adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole: 173 online pairs in USD, EUR and USDT")
    func whole() async throws {
        let list = await Self.list(try JSONDamage.recorded(Self.file))
        #expect(list.failures == [] && list.skipped == [])
        #expect(list.listings.count == 173)
        #expect(
            Array(list.listings.prefix(3)) == [
                MarketListing(exchange: "kraken", market: Market(base: "BTC", quote: "USD"), venueSymbol: "XBTUSD"),
                MarketListing(exchange: "kraken", market: Market(base: "ETH", quote: "USD"), venueSymbol: "ETHUSD"),
                MarketListing(exchange: "kraken", market: Self.xrp, venueSymbol: "XRPUSD"),
            ])
    }

    /// The member of XXRPZUSD's entry damaged, its new value (`nil`: removed), and the reason.
    static let damage: [(key: String, value: JSONValue?, reason: String)] = [
        ("wsname", nil, "expected a string, found nothing"),
        ("altname", .number("3"), "expected a string, found a number"),
        ("status", .bool(true), "expected a string, found a boolean"),
        ("wsname", "X\"RP/USD", "unknown market code 'X\"RP/USD'"),
        ("wsname", "XRP\u{202E}/USD", "unknown market code 'XRP\u{202E}/USD'"),
        ("wsname", "/USD", "unknown market code '/USD'"),
        ("wsname", "XRPUSD", "unknown market code 'XRPUSD'"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, reason: String) async throws {
        let whole = await Self.list(try JSONDamage.recorded(Self.file))
        let body = try JSONDamage.recorded(Self.file, at: [.key("result"), .key("XXRPZUSD"), .key(key)], with: value)
        let list = await Self.list(body)
        #expect(list.failures == [])
        #expect(list.listings == whole.listings.filter { $0.market != Self.xrp })
        #expect(list.listings.count == 172)
        #expect(
            list.skipped == [
                SkippedEntry(
                    venue: "kraken", entry: "XXRPZUSD", market: Self.xrp, path: "$.result.XXRPZUSD.\(key)",
                    reason: reason)
            ])
    }
}
