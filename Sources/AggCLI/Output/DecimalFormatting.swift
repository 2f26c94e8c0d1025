import AggCore
import FoundationEssentials

/// Decimal text for people: thousands separators, rounding to a currency's minor unit. All
/// arithmetic stays in `Decimal`.
public enum DecimalFormatting {
    /// The usual decimals of a currency (KRW 0, USD 2); crypto assets keep 8.
    public static func minorUnits(of currency: String) -> Int {
        switch currency {
        case "KRW", "JPY", "VND", "IDR", "CLP", "ISK", "HUF", "TWD": 0
        case "BTC", "ETH": 8
        case "USDT", "USDC": 2
        default: 2
        }
    }

    /// `value` rounded half away from zero to `places` decimals, exactly (on its decimal digits).
    public static func rounded(_ value: Decimal, places: Int) -> Decimal {
        DecimalRounding.rounded(value, places: places)
    }

    /// The exact value with thousands separators: `109,282,011,238.50126`.
    public static func grouped(_ value: Decimal) -> String {
        group(value.description)
    }

    /// The value rounded to exactly `places` decimals, grouped: `139,925,761` or `97,012.35`.
    public static func fixed(_ value: Decimal, places: Int, grouping: Bool = true) -> String {
        let text = padded(rounded(value, places: places).description, places: places)
        return grouping ? group(text) : text
    }

    /// `text` with exactly `places` fraction digits (it must already have at most that many).
    public static func padded(_ text: String, places: Int) -> String {
        let parts = text.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard places > 0 else { return String(parts.first ?? "0") }
        return String(parts.first ?? "0") + "." + fraction
            + String(repeating: "0", count: max(0, places - fraction.count))
    }

    /// A price for a table: grouped, with at least `currency`'s usual decimals and every decimal
    /// the exact value has (`80,630,000` KRW, `97,012.30` USD, `0.01897` KRW). Nothing is rounded
    /// away: a price is what the venue said.
    public static func price(_ value: Decimal, currency: String) -> String {
        let text = value.description
        let fraction = text.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        return group(padded(text, places: max(minorUnits(of: currency), fraction)))
    }

    /// An amount of money (a trade's cost, a level's value), rounded to `currency`'s usual
    /// decimals and grouped: `15,922,979` KRW.
    public static func money(_ value: Decimal, currency: String) -> String {
        fixed(value, places: minorUnits(of: currency))
    }

    /// A signed percent with two decimals: `+1.25%`, `-0.54%`, `0.00%`.
    public static func percent(_ value: Decimal) -> String {
        let text = fixed(value, places: 2)
        return (value > 0 ? "+" : "") + text + "%"
    }

    /// Inserts commas every three digits of the integer part of plain decimal text.
    public static func group(_ text: String) -> String {
        var integer = Substring(text)
        var sign = ""
        if integer.hasPrefix("-") {
            sign = "-"
            integer = integer.dropFirst()
        }
        var fraction = ""
        if let point = integer.firstIndex(of: ".") {
            fraction = String(integer[point...])
            integer = integer[..<point]
        }
        var groups: [Substring] = []
        var end = integer.endIndex
        while end > integer.startIndex {
            let start =
                integer.index(end, offsetBy: -3, limitedBy: integer.startIndex) ?? integer.startIndex
            groups.insert(integer[start..<end], at: 0)
            end = start
        }
        return sign + groups.joined(separator: ",") + fraction
    }
}
