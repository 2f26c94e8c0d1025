import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Frankfurter

/// Rules 1 to 3 of issue 20 for Frankfurter's table (`/v1/latest?base=USD`, the ECB's 30 rates
/// and the base): each row breaks the KRW rate of the recorded answer one way; KRW is refused,
/// with the value as sent and the path when it did not decode, and every other currency
/// answers exactly. The table's date is bounded by the clock.
@Suite("Frankfurter: one bad rate costs that currency")
struct FrankfurterBulkEntryTests {
    static let file = "frankfurter/latest_USD.json"
    static let bed = AdapterTestBed(FrankfurterAdapter.self)
    /// The ECB's publication of 2024-08-07: 16:00 in Frankfurt, 14:00 UTC.
    static let published = Timestamp(millisecondsSince1970: 1_723_039_200_000)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
    }

    @Test("the recorded table answers whole: 30 rates and the base, nothing refused")
    func whole() async throws {
        let table = try await Self.table(try JSONDamage.recorded(Self.file))
        #expect(table.rates.count == 31 && table.refused == [])
        #expect(table.rates["KRW"] == decimal("1373.59") && table.rates["USD"] == 1)
        #expect(table.rates["IDR"] == decimal("16081") && table.rates["GBP"] == decimal("0.78732"))
        #expect(table.asOf == Self.published)
    }

    /// KRW's new value, and the refusal's text and reason.
    static let damage: [(value: JSONValue, text: String, reason: String)] = [
        ("1373.59", "\"1373.59\"", "unexpected response at $.rates.KRW: expected a number, found a string"),
        (.null, "null", "unexpected response at $.rates.KRW: expected a number, found null"),
        (.number("0"), "0", "an exchange rate must be above zero"),
        (.number("-1373.59"), "-1373.59", "an exchange rate must be above zero"),
        (.number("1e13"), "10000000000000", "outside 1e-12 to 1e12, the range of plausible exchange rates"),
        (
            .number(String(repeating: "9", count: 41)), "99999999999999999999…(41 characters)",
            "unexpected response at $.rates.KRW: '99999999999999999999…(41 characters)' is out of the range of exact decimals"
        ),
        (.object(JSONObject()), "{}", "unexpected response at $.rates.KRW: expected a number, found an object"),
    ]

    @Test("a bad rate is refused for its currency only, with what was sent and why", arguments: damage)
    func damaged(value: JSONValue, text: String, reason: String) async throws {
        let whole = try await Self.table(try JSONDamage.recorded(Self.file))
        let table = try await Self.table(
            try JSONDamage.recorded(Self.file, at: [.key("rates"), .key("KRW")], with: value))
        var others = whole.rates
        others["KRW"] = nil
        #expect(table.rates == others)
        #expect(table.refused == [RateRefusal(code: "KRW", text: text, reason: reason)])
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

    @Test("the date is bounded by the injected clock: a day ahead passes, a second more fails")
    func injectedClock() throws {
        let json = JSONCursor(try JSONParser.parse(try JSONDamage.recorded(Self.file)))
        let dayBefore = Timestamp(millisecondsSince1970: Self.published.millisecondsSince1970 - 86_400_000)
        #expect(try FrankfurterDecoding.rateTable(json, base: "USD", now: dayBefore).asOf == Self.published)
        let secondMore = Timestamp(millisecondsSince1970: dayBefore.millisecondsSince1970 - 1000)
        #expect(
            throws: JSONDecodingError(
                path: "$.date", reason: "2024-08-07T14:00:00.000Z is more than a day in the future")
        ) { try FrankfurterDecoding.rateTable(json, base: "USD", now: secondMore) }
    }

    @Test("the adapter bounds the table's date by its environment's clock")
    func environmentClock() async throws {
        let early = Timestamp(millisecondsSince1970: Self.published.millisecondsSince1970 - 86_400_001)
        let adapter = FrankfurterAdapter(
            environment: AdapterEnvironment(
                baseURL: Self.bed.baseURL, http: ScriptedHTTPClient(body: try JSONDamage.recorded(Self.file)),
                now: { early }))
        await #expect(
            throws: AggError.decoding(
                venue: "frankfurter", path: "$.date",
                detail: "2024-08-07T14:00:00.000Z is more than a day in the future")
        ) { try await adapter.rates(base: "USD") }
    }
}
