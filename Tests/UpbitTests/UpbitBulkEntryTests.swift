import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Upbit

/// Rule 1 of issue 20 for Upbit's detailed market list, which gives transfer status: a damaged
/// entry makes its coin unknown, with the path; the other coins keep their rows. The market
/// list's damaged entries are data (`Fixtures/upbit/bulk-entries.json`, run by AggVenuesTests'
/// `BulkEntryDamageTests`).
@Suite("Upbit: one bad entry of the market list costs that entry")
struct UpbitBulkEntryTests {
    static let xrp = Market(base: "XRP", quote: "KRW")
    static let bed = AdapterTestBed(UpbitAdapter.self)

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
