import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Dunamu

/// Rule 1 of issue 20 for Dunamu's table (`/v1/forex/recent?codes=FRX.KRWUSD`, Hana Bank's KRW
/// price of a dollar): another code's damaged quote costs nothing. The damaged `basePrice` rows
/// and the quote's time bounds are data (`Fixtures/dunamu/bulk-entries.json`, run by
/// AggVenuesTests' `BulkEntryDamageTests`).
@Suite("Dunamu: one bad rate costs that currency")
struct DunamuBulkEntryTests {
    static let file = "dunamu/recent_FRX.KRWUSD.json"
    static let bed = AdapterTestBed(DunamuAdapter.self)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
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
