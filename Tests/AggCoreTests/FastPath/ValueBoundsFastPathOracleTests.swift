import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCore

/// The oracle of `ValueBounds`' fast comparisons (sign, exponent and digit count): the same
/// answers as Foundation's `<`, `>` and `==` on every decimal the venues sent and on random ones.
@Suite("ValueBounds fast path oracle")
struct ValueBoundsFastPathOracleTests {
    @Test(
        "the bounds at their edges: exact answers",
        arguments: [
            ("999999999999999.99999999", 15, false), ("1000000000000000", 15, true), ("1E15", 15, true),
            ("0.0000001", -7, true), ("0.00000009999", -7, false), ("12.5", 1, true), ("12.5", 2, false),
            ("99999999999999999999999999999.9", 30, false), ("1000000000000000000000000000000", 30, true),
        ])
    func edges(_ text: String, _ power: Int, _ expected: Bool) throws {
        let value = try DecimalText.parse(text, form: .jsonNumber)
        #expect(ValueBounds.reaches(value, powerOfTen: power) == expected)
        #expect(ValueBounds.plainReaches(value, powerOfTen: power) == expected)
    }

    @Test("prices and amounts at the bounds: the same problems as before")
    func problems() throws {
        #expect(ValueBounds.priceProblem(try DecimalText.parse("0")) == "'0' is not a positive price")
        #expect(ValueBounds.priceProblem(try DecimalText.parse("-0.5")) == "'-0.5' is not a positive price")
        #expect(ValueBounds.priceProblem(try DecimalText.parse("0.00000001")) == nil)
        #expect(ValueBounds.priceProblem(try DecimalText.parse("999999999999999")) == nil)
        #expect(
            ValueBounds.priceProblem(try DecimalText.parse("1000000000000000"))
                == "'1000000000000000' is beyond any price (10^15 or more)")
        #expect(ValueBounds.amountProblem(try DecimalText.parse("0")) == nil)
        #expect(ValueBounds.amountProblem(try DecimalText.parse("-1")) == "'-1' is negative")
        #expect(
            ValueBounds.amountProblem(try DecimalText.parse("1000000000000000000000000000000"))
                == "'1000000000000000000000000000000' is beyond any amount (10^30 or more)")
    }

    @Test("agrees with Foundation's comparisons on every decimal in the fixtures, either sign, at every power near it")
    func everyFixtureValue() throws {
        var checked = 0
        for value in try FixtureDocuments.allDecimals() {
            Self.expectAgreement(value)
            Self.expectAgreement(-value)
            checked += 1
        }
        // The recorded answers hold tens of thousands of decimals; a broken walk finds none.
        #expect(checked > 10_000)
    }

    @Test("agrees with Foundation's comparisons on 20,000 random values (fixed seed)")
    func randomValues() throws {
        var generator = SeededRandom(seed: 0xB0_0D5)
        for _ in 0..<20_000 {
            // 1 to 38 digits, a point anywhere or an exponent of -40 to 40, either sign.
            var digits = ""
            for _ in 0...(generator.next() % 38) { digits += String(generator.next() % 10) }
            let exponent = Int(generator.next() % 81) - 40
            let text = (generator.next() % 2 == 0 ? "" : "-") + digits + "e\(exponent)"
            guard let value = try? DecimalText.parse(text, form: .jsonNumber) else { continue }
            Self.expectAgreement(value)
        }
    }

    static func expectAgreement(_ value: Decimal, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            ValueBounds.isAboveZero(value) == ValueBounds.plainIsAboveZero(value), "\(value) > 0",
            sourceLocation: sourceLocation)
        #expect(
            ValueBounds.isBelowZero(value) == ValueBounds.plainIsBelowZero(value), "\(value) < 0",
            sourceLocation: sourceLocation)
        #expect(value.isZero == (value == 0), "\(value) == 0", sourceLocation: sourceLocation)
        guard ValueBounds.plainIsAboveZero(value), let leading = DecimalText.leadingPower(of: value) else { return }
        for power in (leading - 2)...(leading + 2) {
            #expect(
                ValueBounds.reaches(value, powerOfTen: power) == ValueBounds.plainReaches(value, powerOfTen: power),
                "\(value) ≥ 10^\(power)", sourceLocation: sourceLocation)
        }
    }
}
