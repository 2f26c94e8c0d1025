import AggCore
import AggJSON
import FoundationEssentials

/// Decimal text for people: thousands separators, rounding to a currency's minor unit. All
/// arithmetic stays in `Decimal`.
package enum DecimalFormatting {
    /// The usual decimals of a currency (KRW 0, USD 2); crypto assets keep 8.
    static func minorUnits(of currency: String) -> Int {
        switch currency {
        case "KRW", "JPY", "VND", "IDR", "CLP", "ISK", "HUF", "TWD": 0
        case "BTC", "ETH": 8
        case "USDT", "USDC": 2
        default: 2
        }
    }

    /// `value` rounded half away from zero to `places` decimals, exactly (on its decimal digits).
    static func rounded(_ value: Decimal, places: Int) -> Decimal {
        DecimalRounding.rounded(value, places: places)
    }

    /// The exact value with thousands separators: `109,282,011,238.50126`.
    package static func grouped(_ value: Decimal) -> String {
        var text = plain(value)
        group(&text)
        return string(text)
    }

    /// The value rounded to exactly `places` decimals, grouped: `139,925,761` or `97,012.35`.
    static func fixed(_ value: Decimal, places: Int, grouping: Bool = true) -> String {
        var text = plain(value)
        round(&text, places: places)
        pad(&text, places: places)
        if grouping { group(&text) }
        return string(text)
    }

    /// `text` with exactly `places` fraction digits (it must already have at most that many).
    static func padded(_ text: String, places: Int) -> String {
        var bytes = Array(text.utf8)
        pad(&bytes, places: places)
        return string(bytes)
    }

    /// A price for a table: grouped, with at least `currency`'s usual decimals and every decimal
    /// the exact value has (`80,630,000` KRW, `97,012.30` USD, `0.01897` KRW). Nothing is rounded
    /// away: a price is what the venue said.
    static func price(_ value: Decimal, currency: String) -> String {
        var text = plain(value)
        let fraction = text.firstIndex(of: point).map { text.count - $0 - 1 } ?? 0
        pad(&text, places: max(minorUnits(of: currency), fraction))
        group(&text)
        return string(text)
    }

    /// An amount of money (a trade's cost, a level's value), rounded to `currency`'s usual
    /// decimals and grouped: `15,922,979` KRW.
    static func money(_ value: Decimal, currency: String) -> String {
        fixed(value, places: minorUnits(of: currency))
    }

    /// A signed percent with two decimals: `+1.25%`, `-0.54%`, `0.00%`.
    static func percent(_ value: Decimal) -> String {
        var text: [UInt8] = value > 0 ? [UInt8(ascii: "+")] : []
        text += plain(value)
        round(&text, places: 2)
        pad(&text, places: 2)
        group(&text)
        text.append(UInt8(ascii: "%"))
        return string(text)
    }

    /// Inserts commas every three digits of the integer part of plain decimal text.
    static func group(_ text: String) -> String {
        var bytes = Array(text.utf8)
        group(&bytes)
        return string(bytes)
    }

    // Everything below works on the UTF-8 bytes of plain decimal text (`-`, digits, `.`,
    // digits), written once by `DecimalText.append`, so that a table of hundreds of prices
    // makes one string per cell and no intermediate ones.

    private static let point = UInt8(ascii: ".")
    private static let zero = UInt8(ascii: "0")

    /// The exact text of `value` (`DecimalText.format`), as bytes.
    private static func plain(_ value: Decimal) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(48)
        DecimalText.append(value, to: &text)
        return text
    }

    private static func string(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Rounds half away from zero to at most `places` fraction digits, exactly, on the digits
    /// (as `DecimalRounding.rounded` does): text with no more digits is left as it is; a value
    /// that rounds to zero loses its minus sign.
    private static func round(_ text: inout [UInt8], places: Int) {
        let places = max(0, places)
        guard let dot = text.firstIndex(of: point), text.count - dot - 1 > places else { return }
        let roundsUp = text[dot + 1 + places] >= UInt8(ascii: "5")
        text.removeSubrange((places == 0 ? dot : dot + 1 + places)...)
        if roundsUp {
            var index = text.count - 1
            var carry = true
            while carry, index >= 0, text[index] != UInt8(ascii: "-"), text[index] != UInt8(ascii: "+") {
                if text[index] == point {
                    index -= 1
                    continue
                }
                if text[index] == UInt8(ascii: "9") {
                    text[index] = zero
                    index -= 1
                } else {
                    text[index] += 1
                    carry = false
                }
            }
            if carry { text.insert(UInt8(ascii: "1"), at: index + 1) }
        }
        if let sign = text.firstIndex(of: UInt8(ascii: "-")),
            !text.contains(where: { $0 > zero && $0 <= UInt8(ascii: "9") })
        {
            text.remove(at: sign)
        }
    }

    /// Pads the fraction with zeros to `places` digits (never shortening it), or, for `places`
    /// of 0 or less, drops the fraction.
    private static func pad(_ text: inout [UInt8], places: Int) {
        if text.isEmpty { text = [zero] }
        let dot = text.firstIndex(of: point)
        guard places > 0 else {
            if let dot { text.removeSubrange(dot...) }
            return
        }
        let fraction = dot.map { text.count - $0 - 1 } ?? 0
        if dot == nil { text.append(point) }
        if fraction < places { text.append(contentsOf: repeatElement(zero, count: places - fraction)) }
    }

    /// Inserts commas every three digits of the integer part, after any sign.
    private static func group(_ text: inout [UInt8]) {
        let start = text.prefix { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }.count
        let end = text.firstIndex(of: point) ?? text.count
        var position = end - 3
        while position > start {
            text.insert(UInt8(ascii: ","), at: position)
            position -= 3
        }
    }
}
