import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Dunamu

/// Rules 1 to 3 of issue 20 for Dunamu's table (`/v1/forex/recent?codes=FRX.KRWUSD`, Hana
/// Bank's KRW price of a dollar): each row breaks the recorded `basePrice` one way; KRW is
/// refused, with the value as sent and the path when it did not decode, and the table still
/// answers with its base. The quote's time is bounded by the clock.
@Suite("Dunamu: one bad rate costs that currency")
struct DunamuBulkEntryTests {
    static let file = "dunamu/recent_FRX.KRWUSD.json"
    static let bed = AdapterTestBed(DunamuAdapter.self)
    /// The recording's `timestamp`.
    static let recordedAt = Timestamp(millisecondsSince1970: 1_723_104_731_527)

    static func table(_ body: String) async throws -> RateTable {
        try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
    }

    @Test("the recorded table answers whole")
    func whole() async throws {
        let table = try await Self.table(try JSONDamage.recorded(Self.file))
        #expect(table.rates == ["USD": 1, "KRW": decimal("1372.5")] && table.refused == [])
        #expect(table.asOf == Self.recordedAt)
    }

    /// `basePrice`'s new value, and the refusal's text and reason.
    static let damage: [(value: JSONValue, text: String, reason: String)] = [
        ("1372.50", "\"1372.50\"", "unexpected response at $[0].basePrice: expected a number, found a string"),
        (.null, "null", "unexpected response at $[0].basePrice: expected a number, found null"),
        (.number("0"), "0", "an exchange rate must be above zero"),
        (.number("-1372.50"), "-1372.5", "an exchange rate must be above zero"),
        (.number("1e13"), "10000000000000", "outside 1e-12 to 1e12, the range of plausible exchange rates"),
        (
            .number(String(repeating: "1", count: 41)), "11111111111111111111…(41 characters)",
            "unexpected response at $[0].basePrice: '11111111111111111111…(41 characters)' is out of the range of exact decimals"
        ),
    ]

    @Test("a bad price is refused for KRW, with what was sent and why; the table keeps its base", arguments: damage)
    func damaged(value: JSONValue, text: String, reason: String) async throws {
        let table = try await Self.table(
            try JSONDamage.recorded(Self.file, at: [.index(0), .key("basePrice")], with: value))
        #expect(table.rates == ["USD": 1])
        #expect(table.refused == [RateRefusal(code: "KRW", text: text, reason: reason)])
        #expect(table.asOf == Self.recordedAt)
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

    @Test("the quote time is bounded by the injected clock: a day ahead passes, a millisecond more fails")
    func injectedClock() throws {
        let json = JSONCursor(try JSONParser.parse(try JSONDamage.recorded(Self.file)))
        let dayBefore = Timestamp(millisecondsSince1970: Self.recordedAt.millisecondsSince1970 - 86_400_000)
        #expect(try DunamuDecoding.rateTable(json, base: "USD", now: dayBefore)?.asOf == Self.recordedAt)
        let less = Timestamp(millisecondsSince1970: dayBefore.millisecondsSince1970 - 1)
        #expect(
            throws: JSONDecodingError(
                path: "$[0].timestamp", reason: "2024-08-08T08:12:11.527Z is more than a day in the future")
        ) { try DunamuDecoding.rateTable(json, base: "USD", now: less) }
    }

    @Test("the adapter bounds the quote's time by its environment's clock")
    func environmentClock() async throws {
        let early = Timestamp(millisecondsSince1970: Self.recordedAt.millisecondsSince1970 - 86_400_001)
        let adapter = DunamuAdapter(
            environment: AdapterEnvironment(
                baseURL: Self.bed.baseURL, http: ScriptedHTTPClient(body: try JSONDamage.recorded(Self.file)),
                now: { early }))
        await #expect(
            throws: AggError.decoding(
                venue: "dunamu", path: "$[0].timestamp",
                detail: "2024-08-08T08:12:11.527Z is more than a day in the future")
        ) { try await adapter.rates(base: "USD") }
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
