import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import OKX

/// Rule 1 of issue 20 for OKX's spot instrument list (`/api/v5/public/instruments`, read by
/// `agg search`, `agg exchanges` and the premium board): each row breaks XRP-USDT's entry of the
/// recorded answer one way; the list still gives every other instrument, exactly, and reports
/// the broken entry once, with its market and the JSON path of the value that failed.
@Suite("OKX: one bad entry of the instrument list costs that entry")
struct OKXBulkEntryTests {
    static let file = "okx/instruments_SPOT.json"
    static let xrp = Market(base: "XRP", quote: "USDT")

    static func list(_ body: String) async -> MarketList {
        await AdapterTestBed(OKXAdapter.self).adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole: 239 live instruments in USDT, USDC and BTC")
    func whole() async throws {
        let list = await Self.list(try JSONDamage.recorded(Self.file))
        #expect(list.failures == [] && list.skipped == [])
        #expect(list.listings.count == 239)
        #expect(
            Array(list.listings.prefix(3)) == [
                MarketListing(exchange: "okx", market: Market(base: "BTC", quote: "USDT"), venueSymbol: "BTC-USDT"),
                MarketListing(exchange: "okx", market: Market(base: "ETH", quote: "USDT"), venueSymbol: "ETH-USDT"),
                MarketListing(exchange: "okx", market: Self.xrp, venueSymbol: "XRP-USDT"),
            ])
    }

    /// The member of XRP-USDT's entry damaged, its new value (`nil`: removed), the entry's name
    /// and market in the report, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, market: Market?, reason: String)] = [
        ("instId", nil, "[2]", nil, "expected a string, found nothing"),
        ("instId", .number("2"), "2", nil, "expected a string, found a number"),
        ("state", .number("1"), "XRP-USDT", xrp, "expected a string, found a number"),
        ("instId", "X\"RP-USDT", "X\"RP-USDT", nil, "unknown market code 'X\"RP-USDT'"),
        ("instId", "XRP\u{7}-USDT", "XRP\u{7}-USDT", nil, "unknown market code 'XRP\u{7}-USDT'"),
        ("instId", "-USDT", "-USDT", nil, "unknown market code '-USDT'"),
        ("instId", "XRPUSDT", "XRPUSDT", nil, "unknown market code 'XRPUSDT'"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, market: Market?, reason: String) async throws {
        let whole = await Self.list(try JSONDamage.recorded(Self.file))
        let body = try JSONDamage.recorded(Self.file, at: [.key("data"), .index(2), .key(key)], with: value)
        let list = await Self.list(body)
        #expect(list.failures == [])
        #expect(list.listings == whole.listings.filter { $0.market != Self.xrp })
        #expect(list.listings.count == 238)
        #expect(
            list.skipped == [
                SkippedEntry(venue: "okx", entry: entry, market: market, path: "$.data[2].\(key)", reason: reason)
            ])
    }
}
