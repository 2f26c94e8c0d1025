import AggCore
import AggJSON
import AggTestKit
import Frankfurter
import Testing

/// Rules 2 and 3 of issue 20 for Frankfurter's table (`/v1/latest?base=USD`, the ECB's 30 rates
/// and the base): the table's date is bounded by the clock. The damaged KRW rows are data
/// (`Fixtures/frankfurter/bulk-entries.json`, run by AggVenuesTests' `BulkEntryDamageTests`).
@Suite("Frankfurter: one bad rate costs that currency")
struct FrankfurterBulkEntryTests {
    static let file = "frankfurter/latest_USD.json"
    static let bed = AdapterTestBed(FrankfurterAdapter.self)
    /// The ECB's publication of 2024-08-07: 16:00 in Frankfurt, 14:00 UTC.
    static let published = Timestamp(millisecondsSince1970: 1_723_039_200_000)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
    }

    @Test(
        "a date whose publication is outside 2009-01-03 ... now + 1 day fails the table at $.date",
        arguments: [
            ("2100-01-01", "2100-01-01T15:00:00.000Z is more than a day in the future"),
            ("2008-12-31", "2008-12-31T15:00:00.000Z is before 2009-01-03"),
        ])
    func date(date: String, detail: String) async throws {
        let body = try JSONDamage.recorded(Self.file, at: [.key("date")], with: .string(date))
        await #expect(throws: AggError.decoding(venue: "frankfurter", path: "$.date", detail: detail)) {
            try await Self.table(body)
        }
    }
}
