import AggJSON
import FoundationEssentials

/// The fast path of `DecimalRounding.plainRounded`: the same rounding on the bytes of the
/// value's canonical text instead of its `Character`s. The premium board rounds every premium
/// and quotient, thousands a refresh, and the text as `Character`s cost more than the divisions
/// themselves (12% of the board's instructions). No unsafe code: only the representation
/// differs. Its oracle test (`DecimalRoundingFastPathOracleTests`) requires the same result as
/// the plain version on every decimal in the fixtures and on random values and places.
extension DecimalRounding {
    static func roundedFastPath(_ value: Decimal, places: Int) -> Decimal {
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
