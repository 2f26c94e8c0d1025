import AggCore
import AggDataVenues
import AggJSON
import AggTestKit
import Testing

/// Rule 1 of issue 20 for a data venue's all-tickers answer, with the shipped GOPAX file: one
/// entry whose symbol does not read costs that entry only. Its market list's damaged entries are
/// data (`Fixtures/gopax/bulk-entries.json`, run by AggVenuesTests' `BulkEntryDamageTests`).
@Suite("GOPAX (data venue): one bad entry of the all-tickers answer costs that entry")
struct GopaxBulkEntryTests {
    static let xrp = Market(base: "XRP", quote: "KRW")

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
