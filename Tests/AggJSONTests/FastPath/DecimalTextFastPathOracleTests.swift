import AggTestKit
import Foundation
import Testing

@testable import AggJSON

/// The oracle of `DecimalTextFastPath`: on every input, the fast path writes exactly what the
/// plain version (`DecimalText.plainFormat`, Foundation's `description`) writes, and it is the
/// path taken for every value but NaN and zero (a fast path that silently fell back would pass
/// a comparison while measuring nothing).
@Suite("DecimalText fast path oracle")
struct DecimalTextFastPathOracleTests {
    /// The fast path, and every public way of formatting, checked against the plain version.
    static func expectAgreement(_ value: Decimal, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = DecimalText.plainFormat(value)
        let fast = DecimalTextFastPath(value)
        #expect(
            (fast == nil) == (value.isNaN || value.isZero), "fast path not taken for \(expected)",
            sourceLocation: sourceLocation)
        if let fast { #expect(fast.text == expected, sourceLocation: sourceLocation) }
        #expect(DecimalText.format(value) == expected, "\(expected)", sourceLocation: sourceLocation)
        var bytes: [UInt8] = Array("x".utf8)
        DecimalText.append(value, to: &bytes)
        #expect(bytes == Array(("x" + expected).utf8), "\(expected)", sourceLocation: sourceLocation)
        // Into a buffer of exactly the text's length, and one byte too short.
        let length = expected.utf8.count
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            DecimalText.write(value, into: buffer).map { Array(buffer[..<$0]) }
        }
        #expect(written == Array(expected.utf8), "\(expected)", sourceLocation: sourceLocation)
        let short = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length - 1) { buffer in
            DecimalText.write(value, into: UnsafeMutableBufferPointer(rebasing: buffer[..<(length - 1)]))
        }
        #expect(short == nil, "\(expected)", sourceLocation: sourceLocation)
    }

    @Test("reads this Foundation's Decimal itself (no fallback to description)")
    func layoutIsKnown() {
        #expect(DecimalTextFastPath.layoutIsKnown)
        let parts = DecimalTextFastPath(Decimal(sign: .minus, exponent: -2, significand: 8_063_001))
        #expect(parts?.negative == true)
        #expect(parts?.exponent == -2)
        #expect(parts?.mantissa == 8_063_001)
        #expect(parts?.digitCount == 7)
        // All eight words: (2^64 - 1)^2 = 340282366920938463426481119284349108225, 39 digits.
        let wide = DecimalTextFastPath(
            Decimal(sign: .minus, exponent: -128, significand: Decimal(UInt64.max) * Decimal(UInt64.max)))
        #expect(wide?.negative == true)
        #expect(wide?.exponent == -128)
        #expect(wide?.mantissa == UInt128("340282366920938463426481119284349108225"))
        #expect(wide?.digitCount == 39)
    }

    @Test("counts the digits on both sides of every power of ten")
    func digitCounts() {
        var power: UInt64 = 10
        for digits in 2...19 {
            // Decimal(10^k) is stored as 1 and an exponent; its neighbours are stored whole.
            #expect(DecimalTextFastPath(Decimal(power - 1))?.digitCount == digits - 1, "\(power - 1)")
            #expect(DecimalTextFastPath(Decimal(power + 1))?.digitCount == digits, "\(power + 1)")
            // A mantissa that is itself a power of ten, and its neighbours, as text.
            let hundredth = Decimal(sign: .plus, exponent: -2, significand: 100)
            for value in [Decimal(power), Decimal(power - 1), Decimal(power + 1)] {
                Self.expectAgreement(value * hundredth)
            }
            power *= 10
        }
        #expect(DecimalTextFastPath(Decimal(UInt64.max))?.digitCount == 20)
    }

    /// Every number and numeric string in every recorded venue answer.
    @Test("agrees with the plain version on every decimal in the fixtures")
    func everyFixtureValue() async throws {
        var checked = 0
        for (_, document) in try FixtureDocuments.all() {
            for text in FixtureDocuments.scalarTexts(document) {
                guard let value = try? DecimalText.parse(text) else { continue }
                if checked % 500 == 0 { await Task.yield() }
                Self.expectAgreement(value)
                // The same value negated, and as the result of arithmetic, whose mantissa need
                // not be compact (description then prints trailing zeros).
                Self.expectAgreement(-value)
                Self.expectAgreement(value * Decimal(sign: .plus, exponent: -2, significand: 100))
                checked += 1
            }
        }
        // The fixtures hold about 18,000 values; a walk that found none would prove nothing.
        #expect(checked > 15_000)
    }

    /// The value of a decimal literal; NaN (which `edgeCase` would reject) if it were not one.
    static func exact(_ text: String) -> Decimal {
        Decimal(string: text) ?? .nan
    }

    static let edges: [Decimal] = {
        let wide = Decimal(UInt64.max) * Decimal(UInt64.max)
        let third = Decimal(1) / Decimal(3)
        return [
            Decimal(0), Decimal(sign: .minus, exponent: 0, significand: 0), Decimal.nan,
            Decimal(1), Decimal(-1), Decimal(10), Decimal(sign: .plus, exponent: 5, significand: 0),
            // Trailing zeros kept in the mantissa.
            Decimal(sign: .plus, exponent: -4, significand: Decimal(10_000)),
            Decimal(sign: .minus, exponent: -2, significand: Decimal(80_630_000)),
            exact("1.5") * Decimal(2), exact("0.10") + exact("0.20"),
            // 38 and 39 digits, and every mantissa word in use.
            exact("12345678901234567890123456789012345678"),
            exact("-99999999999999999999999999999999999999"),
            exact("1234567890123456789.0123456789012345678"), wide, -wide,
            Decimal.greatestFiniteMagnitude, Decimal.leastFiniteMagnitude, Decimal.leastNonzeroMagnitude,
            // Tiny and huge exponents.
            Decimal(sign: .plus, exponent: -128, significand: 1),
            Decimal(sign: .minus, exponent: -128, significand: wide),
            Decimal(sign: .plus, exponent: 127, significand: 1), Decimal(sign: .plus, exponent: 127, significand: wide),
            exact("0.00000001"), exact("-0.00012345678901234567890123456789012345678"),
            // Quotients that fill all 38 digits.
            third, -third, Decimal(2) / Decimal(3), Decimal(-1) / Decimal(7), Decimal(1_000_000) / Decimal(7),
            // Exactly 19 and 20 digits: the edge of one 64-bit chunk.
            exact("1000000000000000000"), exact("9999999999999999999"),
            exact("10000000000000000000"), exact("0.10000000000000000000"),
        ]
    }()

    @Test("agrees with the plain version on edge cases", arguments: edges.indices)
    func edgeCase(_ index: Int) {
        let value = Self.edges[index]
        // Only the third edge is meant to be NaN; any other is a literal that failed to parse.
        #expect(value.isNaN == (index == 2))
        Self.expectAgreement(value)
    }

    @Test("agrees with the plain version on 20,000 random values (fixed seed)")
    func randomValues() async {
        var generator = SeededRandom(seed: 0x5EED_0F_DEC1)
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }
            Self.expectAgreement(generator.decimal())
        }
    }
}
