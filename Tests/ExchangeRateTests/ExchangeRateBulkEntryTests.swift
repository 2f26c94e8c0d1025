import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import ExchangeRate

/// Rules 1 to 3 of issue 20 for ExchangeRate-API's table (`/v6/latest/USD`, 162 rates, which
/// every FX conversion of `quote`, `compare`, `premium`, `record` and `serve` reads): a key that
/// is not a currency code is refused, and the next update lies within a week after the update.
/// The damaged KRW rows and the update time's bounds are data
/// (`Fixtures/exchangerate/bulk-entries.json`, run by AggVenuesTests' `BulkEntryDamageTests`).
@Suite("ExchangeRate: one bad rate costs that currency")
struct ExchangeRateBulkEntryTests {
    static let file = "exchangerate/USD_2024-08-21.json"
    static let bed = AdapterTestBed(ExchangeRateAdapter.self)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
    }

    @Test("a key that is not a currency code is refused, with its path; every rate answers")
    func oddKey() async throws {
        let whole = try await Self.table(try JSONDamage.recorded(Self.file))
        let body = try JSONDamage.recorded(Self.file, at: [.key("rates"), .key("K\"W")], with: .number("1"))
        let table = try await Self.table(body)
        #expect(table.rates == whole.rates)
        #expect(
            table.refused == [
                RateRefusal(code: "K\"W", text: "1", reason: "unexpected response at $.rates.K\"W: not a currency code")
            ])
    }

    @Test(
        "the next update lies after the update and at most a week later",
        arguments: [
            (1_724_198_550, "2024-08-21T00:02:30.000Z"), (1_724_198_551 + 604_801, "2024-08-28T00:02:32.000Z"),
        ])
    func nextUpdate(seconds: Int, shown: String) async throws {
        let body = try JSONDamage.recorded(
            Self.file, at: [.key("time_next_update_unix")], with: .number(String(seconds)))
        await #expect(
            throws: AggError.decoding(
                venue: "exchangerate", path: "$.time_next_update_unix",
                detail: "\(shown) is not within a week after the update of 2024-08-21T00:02:31.000Z")
        ) { try await Self.table(body) }
        let week = try JSONDamage.recorded(
            Self.file, at: [.key("time_next_update_unix")], with: .number(String(1_724_198_551 + 604_800)))
        #expect(try await Self.table(week).nextUpdate == Timestamp(secondsSince1970: 1_724_198_551 + 604_800))
    }
}
