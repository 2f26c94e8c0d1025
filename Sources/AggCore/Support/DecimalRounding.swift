import AggJSON
import FoundationEssentials

/// Exact rounding of `Decimal`s on their decimal digits (FoundationEssentials has no
/// `NSDecimalRound`, and going through `Double` would lose exactness).
public enum DecimalRounding {
    /// `value` rounded half away from zero to `places` decimals (0 for a negative `places`).
    ///
    /// The work is done by `roundedFastPath` (FastPath/DecimalRounding+FastPath.swift), whose
    /// oracle test holds it to `plainRounded`.
    public static func rounded(_ value: Decimal, places: Int) -> Decimal {
        roundedFastPath(value, places: places)
    }

    /// The plain version of `rounded`: the same rounding on the `Character`s of the value's
    /// canonical text.
    static func plainRounded(_ value: Decimal, places: Int) -> Decimal {
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
}
