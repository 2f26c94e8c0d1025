import AggCore
import AggJSON
import AggTestKit
import FoundationEssentials
import Testing

/// The rounding as it was written on `Character`s before it moved to bytes: the reference the
/// byte version must agree with on every value.
private func referenceRounded(_ value: Decimal, places: Int) -> Decimal {
    let text = DecimalText.format(value)
    guard let point = text.firstIndex(of: ".") else { return value }
    let fraction = text[text.index(after: point)...]
    guard fraction.count > max(0, places) else { return value }
    let negative = text.hasPrefix("-")
    let integer = text[text.startIndex..<point].drop { $0 == "-" }
    var digits = Array(integer + fraction.prefix(max(0, places)))
    let firstDropped = fraction[fraction.index(fraction.startIndex, offsetBy: max(0, places))]
    if firstDropped >= "5" {
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] == "9" {
                digits[index] = "0"
                index -= 1
            } else {
                digits[index] = Character(String((digits[index].wholeNumberValue ?? 0) + 1))
                break
            }
        }
        if index < 0 { digits.insert("1", at: 0) }
    }
    let integerCount = digits.count - max(0, places)
    var result = String(digits[..<integerCount])
    if places > 0 { result += "." + String(digits[integerCount...]) }
    return (try? DecimalText.parse((negative ? "-" : "") + result)) ?? value
}

@Suite("DecimalRounding")
struct DecimalRoundingTests {
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

    @Test("agrees with the Character-based rounding on 20,000 random values and places (fixed seed)")
    func agreesWithReference() async throws {
        var generator = SeededRandom(seed: 0x0DEC_1A1D)
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }
            // An integer part of 1 to 10 digits and a fraction of 0 to 12, either sign.
            var text = generator.next() % 2 == 0 ? "" : "-"
            var integer = ""
            for _ in 0...(generator.next() % 10) { integer += String(generator.next() % 10) }
            // The plain grammar has no leading zeros ("0123"): the same value without them.
            while integer.count > 1, integer.first == "0" { integer.removeFirst() }
            text += integer
            let fraction = Int(generator.next() % 13)
            if fraction > 0 { text += "." }
            for _ in 0..<fraction { text += String(generator.next() % 10) }
            // Runs of nines are where carries go wrong: make some values end in them.
            if generator.next() % 4 == 0 { text += (fraction > 0 ? "" : ".") + "9999" }
            let value = try DecimalText.parse(text)
            let places = Int(generator.next() % 12) - 1
            #expect(
                DecimalText.format(DecimalRounding.rounded(value, places: places))
                    == DecimalText.format(referenceRounded(value, places: places)),
                "\(text) to \(places) places")
        }
    }
}
