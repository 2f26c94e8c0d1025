import AggJSON
import AggTestKit
import FoundationEssentials
import Testing

@testable import AggCore

/// The oracle of the book walks' comparison fast path (`DecimalOrder.isLessFastPath`, on the
/// stored parts in 128-bit integers): the same answer as Foundation's `<` both ways on every
/// pair, or no answer (Foundation decides).
@Suite("DecimalOrder fast path oracle")
struct DecimalOrderFastPathOracleTests {
    /// Checks both orders of the pair; says how many the fast path answered itself (0 to 2).
    @discardableResult
    static func expectAgreement(_ a: Decimal, _ b: Decimal, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var answered = 0
        for (x, y) in [(a, b), (b, a)] {
            let plain = DecimalOrder.plainIsLess(x, y)
            if let fast = DecimalOrder.isLessFastPath(x, y) {
                #expect(fast == plain, "\(x) < \(y)", sourceLocation: sourceLocation)
                answered += 1
            }
            #expect(DecimalOrder.isLess(x, y) == plain, "\(x) < \(y)", sourceLocation: sourceLocation)
        }
        return answered
    }

    @Test(
        "equal values written differently, one digit apart, either sign, 38 digits, exponents far apart",
        arguments: [
            ("1", "1.0"), ("10", "1E1"), ("100", "100.000"), ("0.5", "0.50"), ("-2", "-2.00"), ("1", "2"),
            ("-1", "-2"), ("-1", "1"), ("0.999999999999999999", "1"), ("123.45", "123.46"),
            ("99999999999999999999999999999999999999", "1E38"),
            ("9999999999999999999999999999999999999.9", "9999999999999999999999999999999999999.8"),
            ("1.2345678901234567890123456789012345678", "1.2345678901234567890123456789012345679"),
            ("1E-100", "1E100"), ("1E-30", "0.000000000000000000000000000001"), ("5E20", "500000000000000000000"),
            ("12345678901234567890123456789012345678", "1.2345678901234567890123456789012345678E37"),
            ("0", "1"), ("0", "-1"), ("0", "0.0"),
        ])
    func examples(_ a: String, _ b: String) throws {
        Self.expectAgreement(try #require(Decimal(string: a)), try #require(Decimal(string: b)))
    }

    @Test("agrees with Foundation on every neighbouring pair of decimals in the fixtures, and each with itself")
    func everyFixtureValue() async throws {
        let values = try FixtureDocuments.allDecimals()
        var answered = 0
        for (index, pair) in zip(values, values.dropFirst()).enumerated() {
            if index % 500 == 0 { await Task.yield() }
            answered += Self.expectAgreement(pair.0, pair.1)
            answered += Self.expectAgreement(pair.0, pair.0)
        }
        // The fixtures hold about 18,000 values; a walk that found none would prove nothing,
        // and so would a fast path that left every pair to Foundation (zeros are left to it).
        #expect(values.count > 15_000)
        #expect(answered > values.count * 3)
    }

    @Test("agrees with Foundation on 20,000 random pairs of every width and exponent (fixed seed)")
    func randomPairs() async throws {
        var random = SeededRandom(seed: 0x0DE_C0DE)
        var answered = 0
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }
            let a = random.decimal()
            // A third unrelated, a third a unit of some nearby digit away (the same leading
            // power, mostly: the mantissas decide), a third the same value at another exponent.
            let b: Decimal
            switch round % 3 {
            case 0: b = random.decimal()
            case 1:
                let sign: FloatingPointSign = random.next() % 2 == 0 ? .plus : .minus
                b = a + Decimal(sign: sign, exponent: a.exponent + Int(random.next() % 7) - 3, significand: 1)
            default: b = Decimal(sign: a.sign, exponent: a.exponent - 1, significand: a.significand * 10)
            }
            answered += Self.expectAgreement(a, b)
        }
        // Most random pairs are decided by the fast path itself (the rest by Foundation).
        #expect(answered > 30_000)
    }
}
