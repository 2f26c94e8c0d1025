import AggCore
import Testing

@Suite("Timestamp from ISO-8601")
struct TimestampISO8601Tests {
    @Test(
        "ISO-8601 (Coinbase, Kraken v2) with 0 to 9 fraction digits and any offset, exact to the millisecond",
        arguments: [
            ("2025-11-29T22:59:59.912345678Z", Int64(1_764_457_199_912)),
            ("2025-11-29T22:59:59.9129Z", 1_764_457_199_912),
            ("2025-11-29T22:59:59.999999999Z", 1_764_457_199_999),
            ("2025-11-29T22:59:59.5Z", 1_764_457_199_500),
            ("2025-11-29T22:59:59.05Z", 1_764_457_199_050),
            ("2025-11-29T22:59:59Z", 1_764_457_199_000),
            ("2025-11-30T07:59:59.912+09:00", 1_764_457_199_912),
            ("2025-11-29T17:59:59.912-05:00", 1_764_457_199_912),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
            ("1970-01-01T00:00:00.000001Z", 0),
        ])
    func parses(text: String, milliseconds: Int64) {
        #expect(Timestamp(iso8601: text) == Timestamp(millisecondsSince1970: milliseconds))
    }

    @Test(
        "anything else is rejected",
        arguments: [
            "", "2025-11-29", "2025-11-29T22:59:59", "2025-11-29T22:59:59.Z", "2025-11-29T22:59:59.1234567890Z",
            "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2025-11-31T00:00:00Z", "2025-11-29T24:00:00Z",
            "2025-11-29T22:59:59ZZ", "2025-11-29T22:59:59+0900", "2025-11-29t22:59:59Z", "1764457199",
        ])
    func rejects(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }
}
