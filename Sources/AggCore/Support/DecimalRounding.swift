import AggJSON
import FoundationEssentials

/// Exact rounding of `Decimal`s on their decimal digits (FoundationEssentials has no
/// `NSDecimalRound`, and going through `Double` would lose exactness).
public enum DecimalRounding {
    /// `value` rounded half away from zero to `places` decimals (0 for a negative `places`).
    ///
    /// It works on the bytes of the value's canonical text: the premium board rounds every
    /// premium and quotient, thousands a refresh, and the text as `Character`s cost more than
    /// the divisions themselves.
    public static func rounded(_ value: Decimal, places: Int) -> Decimal {
        let kept = max(0, places)
        var text = Array(DecimalText.format(value).utf8)
        guard let point = text.firstIndex(of: UInt8(ascii: ".")), text.count - point - 1 > kept else { return value }
        let firstDropped = text[point + 1 + kept]
        // The kept digits, and the point only when a decimal is kept.
        text.removeSubrange((kept == 0 ? point : point + 1 + kept)...)
        if firstDropped >= UInt8(ascii: "5") {
            // Add one in the last kept place, carrying over nines and past the point.
            var index = text.count - 1
            var carry = true
            while carry, index >= 0, text[index] != UInt8(ascii: "-") {
                switch text[index] {
                case UInt8(ascii: "."): break
                case UInt8(ascii: "9"): text[index] = UInt8(ascii: "0")
                default:
                    text[index] += 1
                    carry = false
                }
                index -= 1
            }
            if carry { text.insert(UInt8(ascii: "1"), at: text.first == UInt8(ascii: "-") ? 1 : 0) }
        }
        return (try? DecimalText.parse(String(decoding: text, as: UTF8.self))) ?? value
    }
}
