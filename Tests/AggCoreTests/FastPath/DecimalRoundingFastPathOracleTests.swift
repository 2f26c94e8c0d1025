import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCore

/// The oracle of `DecimalRounding`'s fast path (on the bytes of the canonical text): the same
/// result as the plain version (on its `Character`s) on every value and number of places.
@Suite("DecimalRounding fast path oracle")
struct DecimalRoundingFastPathOracleTests {
    @Test(
        "half away from zero, carrying over nines and past the point; exact text",
        arguments: [
            ("0.005", 2, "0.01"), ("-0.005", 2, "-0.01"), ("0.0049", 2, "0"), ("9.995", 2, "10"),
            ("-9.995", 2, "-10"), ("99.5", 0, "100"), ("-0.5", 0, "-1"), ("0.4", 0, "0"), ("123", 2, "123"),
            ("1.25", 1, "1.3"), ("1.35", -3, "1"), ("0.65238509770", 2, "0.65"), ("1371.55", 4, "1371.55"),
            ("12345678901234567890.123456789012345678", 6, "12345678901234567890.123457"),
        ])
    func examples(_ text: String, _ places: Int, _ expected: String) throws {
        let value = try DecimalText.parse(text)
        #expect(DecimalText.format(DecimalRounding.rounded(value, places: places)) == expected)
    }

    @Test("agrees with the plain version on 20,000 random values and places (fixed seed)")
    func agreesWithReference() async throws {
        var generator = SeededRandom(seed: 0x0DEC_1A1D)
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }
            let value = try DecimalText.parse(generator.decimalText())
            let places = Int(generator.next() % 12) - 1
            Self.expectAgreement(value, places: places)
        }
    }

    static func expectAgreement(_ value: Decimal, places: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let plain = DecimalText.format(DecimalRounding.plainRounded(value, places: places))
        #expect(
            DecimalText.format(DecimalRounding.roundedFastPath(value, places: places)) == plain,
            "\(value) to \(places) places", sourceLocation: sourceLocation)
        #expect(
            DecimalText.format(DecimalRounding.rounded(value, places: places)) == plain, sourceLocation: sourceLocation)
    }

    /// Every decimal in the recorded venue answers, to 0 to 8 places.
    @Test("agrees with the plain version on every decimal in the fixtures")
    func everyFixtureValue() async throws {
        var checked = 0
        for value in try FixtureDocuments.allDecimals() {
            if checked % 500 == 0 { await Task.yield() }
            Self.expectAgreement(value, places: checked % 9)
            checked += 1
        }
        // The fixtures hold about 18,000 values; a walk that found none would prove nothing.
        #expect(checked > 15_000)
    }
}
