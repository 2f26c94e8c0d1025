import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Upbit

/// Rule 1 of issue 20 for Upbit's market list (`/v1/market/all`, read by `agg search`,
/// `agg exchanges` and the premium board) and the detailed list that gives transfer status:
/// each row breaks one entry of the recorded answer one way; the list still gives every other
/// market, exactly, and reports the broken entry once, with its market and JSON path.
@Suite("Upbit: one bad entry of the market list costs that entry")
struct UpbitBulkEntryTests {
    static let xrp = Market(base: "XRP", quote: "KRW")
    static let bed = AdapterTestBed(UpbitAdapter.self)

    static func list(_ body: String) async -> MarketList {
        await bed.adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole: 32 markets with their names")
    func whole() async throws {
        let list = await Self.list(try JSONDamage.recorded("upbit/market_all.json"))
        #expect(list.failures == [] && list.skipped == [])
        #expect(list.listings.count == 32)
        #expect(
            list.listings[5]
                == MarketListing(
                    exchange: "upbit", market: Self.xrp, venueSymbol: "KRW-XRP", koreanName: "엑스알피(리플)",
                    englishName: "XRP"))
    }

    /// The member of KRW-XRP's entry (`$[5]`) damaged, its new value (`nil`: removed), the
    /// entry's name and market in the report, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, market: Market?, reason: String)] = [
        ("market", nil, "[5]", nil, "expected a string, found nothing"),
        ("market", .number("5"), "5", nil, "expected a string, found a number"),
        ("korean_name", .number("5"), "KRW-XRP", xrp, "expected a string, found a number"),
        ("market", "KRW-A\"B", "KRW-A\"B", nil, "unknown market code 'KRW-A\"B'"),
        ("market", "KRW-X\u{9B}RP", "KRW-X\u{9B}RP", nil, "unknown market code 'KRW-X\u{9B}RP'"),
        ("market", "KRW-", "KRW-", nil, "unknown market code 'KRW-'"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, market: Market?, reason: String) async throws {
        let whole = await Self.list(try JSONDamage.recorded("upbit/market_all.json"))
        let list = await Self.list(
            try JSONDamage.recorded("upbit/market_all.json", at: [.index(5), .key(key)], with: value))
        #expect(list.failures == [])
        #expect(list.listings == whole.listings.filter { $0.market != Self.xrp })
        #expect(list.listings.count == 31)
        #expect(
            list.skipped == [
                SkippedEntry(venue: "upbit", entry: entry, market: market, path: "$[5].\(key)", reason: reason)
            ]
        )
    }

    @Test("transfer status: a damaged entry makes its coin unknown with the path; the other coins keep their rows")
    func transferStatus() async throws {
        let body = try JSONDamage.recorded(
            "upbit/market_all_details.json", at: [.index(6), .key("market_event"), .key("warning")], with: "yes")
        let rows = try await Self.bed.adapter(ScriptedHTTPClient(body: body)).transferStatus(coins: [])
        let none = UpbitTransferDecoding.noPublicStatus
        func row(_ coin: String, _ note: String) -> TransferStatus {
            TransferStatus(exchange: "upbit", coin: coin, deposit: .unknown, withdraw: .unknown, note: note)
        }
        #expect(
            rows == [
                row("BTC", none), row("ETH", none),
                row("XRP", none + "; market warnings: GLOBAL_PRICE_DIFFERENCES, TRADING_VOLUME_SOARING"),
                row("GRS", none + "; market warnings: WARNING"),
                row("SOL", "unexpected response at $[6].market_event.warning: expected a boolean, found a string"),
            ])
    }
}
