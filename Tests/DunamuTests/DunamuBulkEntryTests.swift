import AggCore
import AggJSON
import AggTestKit
import Dunamu
import Testing

/// Rules 2 and 3 of issue 20 for Dunamu's table (`/v1/forex/recent?codes=FRX.KRWUSD`, Hana
/// Bank's KRW price of a dollar): the quote's time is bounded by the clock, and another code's
/// damaged quote costs nothing. The damaged `basePrice` rows are data
/// (`Fixtures/dunamu/bulk-entries.json`, run by AggVenuesTests' `BulkEntryDamageTests`).
@Suite("Dunamu: one bad rate costs that currency")
struct DunamuBulkEntryTests {
    static let file = "dunamu/recent_FRX.KRWUSD.json"
    static let bed = AdapterTestBed(DunamuAdapter.self)
    /// The recording's `timestamp`.
    static let recordedAt = Timestamp(millisecondsSince1970: 1_723_104_731_527)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
    }

    @Test(
        "a quote time outside 2009-01-03 ... now + 1 day fails the table at its path",
        arguments: [
            ("4102444800000", "2100-01-01T00:00:00.000Z is more than a day in the future"),
            ("1723104731", "1970-01-20T22:38:24.731Z is before 2009-01-03"),
        ])
    func quoteTime(milliseconds: String, detail: String) async throws {
        let body = try JSONDamage.recorded(Self.file, at: [.index(0), .key("timestamp")], with: .number(milliseconds))
        await #expect(throws: AggError.decoding(venue: "dunamu", path: "$[0].timestamp", detail: detail)) {
            try await Self.table(body)
        }
    }

    @Test("another code's damaged quote in the answer costs nothing")
    func otherQuote() async throws {
        let recorded = try JSONParser.parse(try JSONDamage.recorded(Self.file))
        guard case .array(let quotes) = recorded else { throw JSONDecodingError(path: "$", reason: "not an array") }
        let body = JSONValue.array([["code": .number("7"), "basePrice": "x"]] + quotes).serialized()
        let table = try await Self.table(body)
        #expect(table.rates == ["USD": 1, "KRW": decimal("1372.5")] && table.refused == [])
    }
}
