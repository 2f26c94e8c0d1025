import AggJSON
import AggTestKit
import FoundationEssentials
import Testing

@testable import AggCore

/// The oracle of the book walks' arithmetic fast path (`DecimalArithmetic`, on the stored parts
/// in 128-bit integers): the same 20 bytes as Foundation's `+`, `-` and `*` wherever it answers,
/// and Foundation's own answer wherever it does not.
@Suite("DecimalArithmetic fast path oracle")
struct DecimalArithmeticFastPathOracleTests {
    static func bytes(_ value: Decimal) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    /// Checks the three operations both ways round; says how many the fast path answered.
    @discardableResult
    static func expectAgreement(_ a: Decimal, _ b: Decimal, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var answered = 0
        for (x, y) in [(a, b), (b, a)] {
            let cases: [(String, Decimal?, Decimal, Decimal)] = [
                ("+", DecimalArithmetic.sumFastPath(x, y, negatingB: false), x + y, DecimalArithmetic.sum(x, y)),
                ("-", DecimalArithmetic.sumFastPath(x, y, negatingB: true), x - y, DecimalArithmetic.difference(x, y)),
                ("*", DecimalArithmetic.productFastPath(x, y), x * y, DecimalArithmetic.product(x, y)),
            ]
            for (name, fast, plain, either) in cases {
                if let fast {
                    #expect(bytes(fast) == bytes(plain), "\(x) \(name) \(y)", sourceLocation: sourceLocation)
                    answered += 1
                }
                #expect(bytes(either) == bytes(plain), "\(x) \(name) \(y)", sourceLocation: sourceLocation)
            }
        }
        return answered
    }

    @Test(
        "trailing zeros, level sums, exact differences, 38 digits, a carry past 38 digits, signs",
        arguments: [
            ("1.50", "1"), ("0.1", "0.2"), ("100", "99.99"), ("2.5", "4"), ("0.00012", "50000"), ("-3", "3.5"),
            ("80640000.0", "0.10472511"), ("99999999999999999999999999999999999999", "1"),
            ("9999999999999999999", "9999999999999999999"), ("1.2345678901234567890123456789012345678", "1E-37"),
            ("7518.7969924812030075187969924812030075", "250.5"), ("1E20", "1E-20"), ("123", "123"),
            ("0", "5"), ("5", "0"), ("10", "0.1"), ("-0.5", "-0.25"),
        ])
    func examples(_ a: String, _ b: String) throws {
        Self.expectAgreement(try DecimalText.parse(a, form: .jsonNumber), try DecimalText.parse(b, form: .jsonNumber))
    }

    @Test("agrees with Foundation on every neighbouring pair of decimals in the fixtures")
    func everyFixtureValue() async throws {
        let values = try FixtureDocuments.allDecimals()
        var answered = 0
        for (index, pair) in zip(values, values.dropFirst()).enumerated() {
            if index % 500 == 0 { await Task.yield() }
            answered += Self.expectAgreement(pair.0, pair.1)
        }
        // The fixtures hold about 18,000 values; a walk that found none would prove nothing,
        // and so would a fast path that left every pair to Foundation.
        #expect(values.count > 15_000)
        #expect(answered > values.count * 3)
    }

    @Test("agrees with Foundation on 20,000 random pairs: venue-like texts and decimals of every width")
    func randomPairs() async throws {
        var random = SeededRandom(seed: 0xA_DD5_0B)
        var answered = 0
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }
            // Exponents within ±30, so that Foundation's product stays inside its range (it
            // traps on an exponent overflow).
            func wide() -> Decimal {
                let value = random.decimal()
                return Decimal(sign: value.sign, exponent: Int(random.next() % 61) - 30, significand: value.significand)
            }
            let (a, b) =
                round % 2 == 0
                ? (try DecimalText.parse(random.decimalText()), try DecimalText.parse(random.decimalText()))
                : (wide(), wide())
            answered += Self.expectAgreement(a, b)
        }
        #expect(answered > 40_000)
    }
}
