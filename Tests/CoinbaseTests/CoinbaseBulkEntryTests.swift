import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Coinbase

/// Rule 1 of issue 20 for Coinbase's product list (`/products`, read by `agg search` and
/// `agg exchanges`): each row breaks ETH-USD's entry of the recorded answer one way; the list
/// still gives every other product, exactly, and reports the broken entry once, with its market
/// and the JSON path of the value that failed.
@Suite("Coinbase: one bad entry of the product list costs that entry")
struct CoinbaseBulkEntryTests {
    static let file = "coinbase/products.json"
    static let eth = Market(base: "ETH", quote: "USD")

    /// The recorded list: online products in the quotes agg asks Coinbase for (BTC-GBP is in
    /// pounds, MKR-USD is delisted).
    static let recorded = [
        MarketListing(exchange: "coinbase", market: Market(base: "BTC", quote: "USD"), venueSymbol: "BTC-USD"),
        MarketListing(exchange: "coinbase", market: eth, venueSymbol: "ETH-USD"),
        MarketListing(exchange: "coinbase", market: Market(base: "BTC", quote: "USDT"), venueSymbol: "BTC-USDT"),
        MarketListing(exchange: "coinbase", market: Market(base: "ETH", quote: "BTC"), venueSymbol: "ETH-BTC"),
        MarketListing(exchange: "coinbase", market: Market(base: "BTC", quote: "EUR"), venueSymbol: "BTC-EUR"),
        MarketListing(exchange: "coinbase", market: Market(base: "USDT", quote: "USD"), venueSymbol: "USDT-USD"),
    ]

    static func list(_ body: String) async -> MarketList {
        await AdapterTestBed(CoinbaseAdapter.self).adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole")
    func whole() async throws {
        #expect(await Self.list(try JSONDamage.recorded(Self.file)) == MarketList(listings: Self.recorded))
    }

    /// The member of ETH-USD's entry damaged, its new value (`nil`: removed), the entry's name
    /// and market in the report, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, market: Market?, reason: String)] = [
        ("id", nil, "[1]", nil, "expected a string, found nothing"),
        ("id", .number("1"), "1", nil, "expected a string, found a number"),
        ("status", .number("1"), "ETH-USD", eth, "expected a string, found a number"),
        ("id", "E\"TH-USD", "E\"TH-USD", nil, "unknown market code 'E\"TH-USD'"),
        ("id", "ETH\u{0}-USD", "ETH\u{0}-USD", nil, "unknown market code 'ETH\u{0}-USD'"),
        ("id", "-USD", "-USD", nil, "unknown market code '-USD'"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, market: Market?, reason: String) async throws {
        let list = await Self.list(try JSONDamage.recorded(Self.file, at: [.index(1), .key(key)], with: value))
        #expect(list.failures == [])
        #expect(list.listings == Self.recorded.filter { $0.market != Self.eth })
        #expect(
            list.skipped == [
                SkippedEntry(venue: "coinbase", entry: entry, market: market, path: "$[1].\(key)", reason: reason)
            ])
    }
}
