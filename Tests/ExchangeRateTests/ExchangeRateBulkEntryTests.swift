import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import ExchangeRate

/// Rules 1 to 3 of issue 20 for ExchangeRate-API's table (`/v6/latest/USD`, 162 rates, which
/// every FX conversion of `quote`, `compare`, `premium`, `record` and `serve` reads): each row
/// breaks the KRW rate of the recorded answer one way; KRW is refused, with the value as sent and
/// the path when it did not decode, and every other currency answers exactly. The table's times
/// are bounded by the clock.
@Suite("ExchangeRate: one bad rate costs that currency")
struct ExchangeRateBulkEntryTests {
    static let file = "exchangerate/USD_2024-08-21.json"
    static let bed = AdapterTestBed(ExchangeRateAdapter.self)
    /// `time_last_update_unix` of the recording: 2024-08-21T00:02:31Z.
    static let updated = Timestamp(secondsSince1970: 1_724_198_551)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
    }

    @Test("the recorded table answers whole: 162 rates, nothing refused")
    func whole() async throws {
        let table = try await Self.table(try JSONDamage.recorded(Self.file))
        #expect(table.rates.count == 162 && table.refused == [])
        #expect(table.rates["KRW"] == decimal("1331.529034") && table.rates["USD"] == 1)
        #expect(table.rates["IRR"] == decimal("42376.86079") && table.rates["KWD"] == decimal("0.305655"))
        #expect(table.asOf == Self.updated)
        #expect(table.nextUpdate == Timestamp(secondsSince1970: 1_724_285_181))
    }

    static let fortyOne = String(repeating: "1", count: 41)

    /// KRW's new value, and the refusal's text and reason.
    static let damage: [(value: JSONValue, text: String, reason: String)] = [
        ("1331.529034", "\"1331.529034\"", "unexpected response at $.rates.KRW: expected a number, found a string"),
        ("NaN", "\"NaN\"", "unexpected response at $.rates.KRW: expected a number, found a string"),
        (.null, "null", "unexpected response at $.rates.KRW: expected a number, found null"),
        (.number("0"), "0", "an exchange rate must be above zero"),
        (.number("-1331.529034"), "-1331.529034", "an exchange rate must be above zero"),
        (.number("1e13"), "10000000000000", "outside 1e-12 to 1e12, the range of plausible exchange rates"),
        (
            .number("1e-13"), "0.0000000000001",
            "outside 1e-12 to 1e12, the range of plausible exchange rates"
        ),
        (
            .number(fortyOne), "11111111111111111111…(41 characters)",
            "unexpected response at $.rates.KRW: '11111111111111111111…(41 characters)' is out of the range of exact decimals"
        ),
        (
            .number("1e999999"), "1e999999",
            "unexpected response at $.rates.KRW: '1e999999' is out of the range of exact decimals"
        ),
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
        #expect(table.refused.map(\.description) == ["KRW rate \(text) refused: \(reason)"])
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
        "an update time outside 2009-01-03 ... now + 1 day fails the table at its path",
        arguments: [
            ("4102444800", "2100-01-01T00:00:00.000Z is more than a day in the future"),
            ("1230940799", "2009-01-02T23:59:59.000Z is before 2009-01-03"),
        ])
    func updateTime(seconds: String, detail: String) async throws {
        let body = try JSONDamage.recorded(Self.file, at: [.key("time_last_update_unix")], with: .number(seconds))
        await #expect(
            throws: AggError.decoding(venue: "exchangerate", path: "$.time_last_update_unix", detail: detail)
        ) { try await Self.table(body) }
    }

    @Test("the update time is bounded by the injected clock: a day ahead passes, a second more fails")
    func injectedClock() throws {
        let json = JSONCursor(try JSONParser.parse(try JSONDamage.recorded(Self.file)))
        let dayBefore = Timestamp(millisecondsSince1970: Self.updated.millisecondsSince1970 - 86_400_000)
        #expect(try ExchangeRateDecoding.rateTable(json, base: "USD", now: dayBefore).asOf == Self.updated)
        let secondMore = Timestamp(millisecondsSince1970: dayBefore.millisecondsSince1970 - 1000)
        #expect(
            throws: JSONDecodingError(
                path: "$.time_last_update_unix", reason: "2024-08-21T00:02:31.000Z is more than a day in the future")
        ) { try ExchangeRateDecoding.rateTable(json, base: "USD", now: secondMore) }
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

    @Test("the adapter bounds the table's time by its environment's clock")
    func environmentClock() async throws {
        let early = Timestamp(millisecondsSince1970: Self.updated.millisecondsSince1970 - 86_400_001)
        let adapter = ExchangeRateAdapter(
            environment: AdapterEnvironment(
                baseURL: Self.bed.baseURL, http: ScriptedHTTPClient(body: try JSONDamage.recorded(Self.file)),
                now: { early }))
        await #expect(
            throws: AggError.decoding(
                venue: "exchangerate", path: "$.time_last_update_unix",
                detail: "2024-08-21T00:02:31.000Z is more than a day in the future")
        ) { try await adapter.rates(base: "USD") }
    }
}
