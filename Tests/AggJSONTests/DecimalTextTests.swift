import AggJSON
import Foundation
import Testing

@Suite("DecimalText")
struct DecimalTextTests {
    /// Inputs in the JSON number form of the grammar, `-?(0|[1-9]digits)(.digits)?([eE][+-]?digits)?`,
    /// with the plain decimal text of their exact value, which is also what `Decimal.description`
    /// must print. Those without an exponent are also plain decimals.
    static let exact: [(text: String, plain: String)] = [
        ("80630000", "80630000"),
        ("80630000.0000", "80630000"),
        ("-0.54", "-0.54"),
        ("1e3", "1000"),
        ("1E-7", "0.0000001"),
        ("1.5e+2", "150"),
        ("-1.5E+10", "-15000000000"),
        ("2.50E-1", "0.25"),
        ("0", "0"),
        ("-0", "0"),
        ("0.000", "0"),
        ("0e5", "0"),
        ("7E+0", "7"),
        ("0.00000001", "0.00000001"),
        ("109282011238.50126", "109282011238.50126"),
        ("1723104735027", "1723104735027"),
        ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
        ("-99999999999999999999999999999999999999", "-99999999999999999999999999999999999999"),
        ("1234567890123456789.0123456789012345678", "1234567890123456789.0123456789012345678"),
        ("0.00012345678901234567890123456789012345678", "0.00012345678901234567890123456789012345678"),
        ("123456789012345678901234567890123456780000", "123456789012345678901234567890123456780000"),
    ]

    @Test("parses to the exact value", arguments: exact)
    func parsesExactly(text: String, plain: String) throws {
        let value = try DecimalText.parse(text, form: .jsonNumber)
        #expect(value == Decimal(string: plain))
        if !text.contains(where: { $0 == "e" || $0 == "E" }) {
            #expect(try DecimalText.parse(text) == value)
        }
        #expect(value.description == plain)
        #expect(DecimalText.format(value) == plain)
    }

    /// Values at the edges of `Decimal`'s exponent, checked against values built from their parts.
    static let extremes: [(text: String, sign: FloatingPointSign, exponent: Int, significand: String)] = [
        ("1e127", .plus, 127, "1"),
        ("1e-128", .plus, -128, "1"),
        ("-9.9e128", .minus, 127, "99"),
        ("1000e124", .plus, 127, "1"),
        ("0.1e-127", .plus, -128, "1"),
        (
            "12345678901234567890123456789012345678e127", .plus, 127,
            "12345678901234567890123456789012345678"
        ),
        (
            "-1.2345678901234567890123456789012345678e-90", .minus, -127,
            "12345678901234567890123456789012345678"
        ),
    ]

    @Test("parses the extremes of the exponent range", arguments: extremes)
    func extremeExponents(text: String, sign: FloatingPointSign, exponent: Int, significand: String)
        throws
    {
        let significand = try #require(Decimal(string: significand))
        let expected = Decimal(sign: sign, exponent: exponent, significand: significand)
        let value = try DecimalText.parse(text, form: .jsonNumber)
        #expect(value == expected)
        #expect(try DecimalText.parse(value.description) == value)
    }

    /// Digits that cycle through 1...9 and 0, `count` of them, never all zero.
    static func digits(_ count: Int) -> String {
        String((0..<count).map { Character(String(($0 + 1) % 10)) })
    }

    static let outOfRange: [String] = [
        digits(39),
        "1" + digits(38),
        "-" + digits(39),
        "0." + digits(39),
        digits(20) + "." + digits(19),
        "1e999999",
        "1e-999999",
        "-1e99999999999999999999999",
        "1e128",
        "1e-129",
        "0.1234e-125",
        "1" + String(repeating: "0", count: 200),
        "0." + String(repeating: "0", count: 200) + "1",
        digits(5000),
        "1" + String(repeating: "0", count: 5000) + "1",
    ]

    @Test("rejects what Decimal cannot hold exactly", arguments: outOfRange)
    func rejectsOutOfRange(text: String) {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: DecimalText.Failure.outOfRange(text)) {
                try DecimalText.parse(text, form: .jsonNumber)
            }
        }
        #expect(elapsed < .milliseconds(500))
    }

    @Test("long texts are parsed in linear time")
    func longTextsAreFast() {
        let clock = ContinuousClock()
        let huge = Self.digits(200_000)
        let longExponent = "1e" + Self.digits(200_000)
        let longZero = "0." + String(repeating: "0", count: 200_000)
        var zero: Decimal?
        let elapsed = clock.measure {
            #expect(throws: DecimalText.Failure.outOfRange(huge)) { try DecimalText.parse(huge) }
            #expect(throws: DecimalText.Failure.outOfRange(longExponent)) {
                try DecimalText.parse(longExponent, form: .jsonNumber)
            }
            zero = try? DecimalText.parse(longZero)
        }
        #expect(zero == 0)
        #expect(elapsed < .seconds(2))
    }

    /// Texts that other parsers accept but a venue's number must not be: thousands separators
    /// (a decimal comma would be misread 1000 times), surrounding or inner white space, a plus
    /// sign, and a point without digits on both sides.
    static let lenientForms: [String] = [
        "1,234", "80,630.5", "1,234,567.89", "-123,456,789.000", "+999,999.999", "1,234e3", "12,345",
        " 123", "123 ", " 42 ", "\u{A0}1",
        "+1.25", "+0", "+.5",
        ".5", "-.5", "5.", "-5.", "5.e3", ".5e1", "1.e5",
        "80630000,0000", "0,5",
    ]

    @Test("rejects what lenient parsers accept", arguments: lenientForms)
    func rejectsLenientForms(text: String) {
        #expect(throws: DecimalText.Failure.invalid(text)) { try DecimalText.parse(text) }
    }

    /// The plain form refuses what only a JSON number token may carry (an exponent) and what
    /// neither form accepts (leading zeros), with the error that names it; the JSON number form
    /// accepts the exponent (exactly) and refuses the leading zeros the same way.
    static let strictForms: [(text: String, plain: DecimalText.Failure, jsonNumber: DecimalText.Failure?)] = [
        ("1e3", .exponent("1e3"), nil),
        ("1E3", .exponent("1E3"), nil),
        ("1e-3", .exponent("1e-3"), nil),
        ("1.2E-4", .exponent("1.2E-4"), nil),
        ("-2.5e+2", .exponent("-2.5e+2"), nil),
        ("0e5", .exponent("0e5"), nil),
        ("00123", .leadingZeros("00123"), .leadingZeros("00123")),
        ("0123", .leadingZeros("0123"), .leadingZeros("0123")),
        ("-00.50", .leadingZeros("-00.50"), .leadingZeros("-00.50")),
        ("0080630000.0000", .leadingZeros("0080630000.0000"), .leadingZeros("0080630000.0000")),
        ("00e5", .leadingZeros("00e5"), .leadingZeros("00e5")),
        ("00,5", .invalid("00,5"), .invalid("00,5")),
        ("1e", .invalid("1e"), .invalid("1e")),
        ("1e+", .invalid("1e+"), .invalid("1e+")),
        ("1e5.5", .invalid("1e5.5"), .invalid("1e5.5")),
        ("NaN", .invalid("NaN"), .invalid("NaN")),
        ("Infinity", .invalid("Infinity"), .invalid("Infinity")),
        ("+1", .invalid("+1"), .invalid("+1")),
    ]

    @Test("plain text has no exponent and no leading zeros", arguments: strictForms)
    func strictGrammar(text: String, plain: DecimalText.Failure, jsonNumber: DecimalText.Failure?) throws {
        #expect(throws: plain) { try DecimalText.parse(text) }
        if let jsonNumber {
            #expect(throws: jsonNumber) { try DecimalText.parse(text, form: .jsonNumber) }
        } else {
            let value = try DecimalText.parse(text, form: .jsonNumber)
            #expect(value == Decimal(string: text))
        }
    }

    @Test("the strict failures describe themselves")
    func strictDescriptions() {
        #expect(
            DecimalText.Failure.exponent("1e3").description
                == "'1e3' has an exponent: a decimal written as text must be written out in full")
        #expect(DecimalText.Failure.leadingZeros("00123").description == "'00123' has leading zeros")
    }

    static let invalid: [String] = [
        "abc", "1,23", "12,34.5", "1..2", "1e", "--1", "1.2.3", "1,234.5,6", "NaN", "Infinity",
        "-Infinity", "nan",
        "-", "+", ".", "-.", "+-1", "-+1", "e5", ".e5", "1e+", "1e-", "1e5.5", "1e5,000", "1e 5", "1 2",
        "1 000",
        "0x10", "1_000", "1a", "$1", "1%", ",123", "1,", "1,234,", "1,,234", "1,234,56", "1234,567",
        "12345,678.9",
        "0,0000", "1,.5", "1.,5", "1.2,345", ",", "\t1", "1\n", "١٢٣", "１２３", "½", "1e٣",
    ]

    @Test("rejects text that is not a decimal", arguments: invalid)
    func rejectsInvalid(text: String) {
        #expect(throws: DecimalText.Failure.invalid(text)) { try DecimalText.parse(text) }
    }

    @Test("rejects empty text")
    func rejectsEmpty() {
        #expect(throws: DecimalText.Failure.empty) { try DecimalText.parse("") }
        #expect(throws: DecimalText.Failure.invalid(" ")) { try DecimalText.parse(" ") }
        #expect(throws: DecimalText.Failure.invalid("     ")) { try DecimalText.parse("     ") }
    }

    @Test("accepts any StringProtocol")
    func substrings() throws {
        let text = "[12.5]"
        #expect(try DecimalText.parse(text.dropFirst().dropLast()) == Decimal(string: "12.5"))
        let bridged = String(decoding: Array("7654.321".utf8), as: UTF8.self)
        #expect(try DecimalText.parse(bridged[...]) == Decimal(string: "7654.321"))
    }

    @Test("failures describe themselves")
    func descriptions() {
        #expect(DecimalText.Failure.empty.description == "an empty number")
        #expect(DecimalText.Failure.invalid("abc").description == "'abc' is not a decimal number")
        #expect(
            DecimalText.Failure.outOfRange("1e999999").description
                == "'1e999999' is out of the range of exact decimals")
        let long = Self.digits(5000)
        #expect(
            DecimalText.Failure.outOfRange(long).description
                == "'\(long.prefix(20))…(5000 characters)' is out of the range of exact decimals")
    }
}
