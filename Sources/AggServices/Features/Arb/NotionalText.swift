import AggCore
import AggOptions
import FoundationEssentials

/// The grammar of `--notional`: plain digits with at most one point (`1000000`, `2.5`), then
/// optionally one unit, `K` (thousand), `M` (million) or `B` (billion), in either case. The
/// amount is above zero and at most 1e12. Separators (`1,000,000`, `1_000`, `1 000`) are refused
/// rather than guessed: in some locales a comma is the decimal point.
package enum NotionalText {
    /// The largest notional agg prices: a trillion in any currency is past every book's depth.
    package static let maximum = Decimal(sign: .plus, exponent: 12, significand: 1)

    /// The units a notional may end with, and their factors.
    static let units: [Character: Decimal] = [
        "K": 1_000, "M": 1_000_000, "B": 1_000_000_000,
    ]

    /// The parser `--notional` uses: each refusal is one line saying what was wrong.
    package static let parser = ValueParser<Decimal>(
        expected: "an amount such as 1000000, 2.5K, 10M or 1B"
    ) { text throws(AggError) in try parse(text) }

    /// The amount `text` says.
    package static func parse(_ text: String) throws(AggError) -> Decimal {
        if text.contains(where: { $0 == "," || $0 == "_" || $0 == " " || $0 == "'" }) {
            throw .usage("invalid --notional '\(text)': write it without separators, such as 1000000 or 1M")
        }
        var digits = Substring(text)
        var factor: Decimal = 1
        if let last = digits.last, last.isLetter {
            guard let unit = units[Character(last.uppercased())] else {
                throw .usage("invalid --notional '\(text)': unknown unit '\(last)'; the units are K, M and B")
            }
            factor = unit
            digits = digits.dropLast()
        }
        if digits.hasPrefix("-") {
            throw .usage("invalid --notional '\(text)': the notional must be above 0")
        }
        guard let amount = NumberText.amount(String(digits)) else {
            throw .usage("invalid --notional '\(text)': expected an amount such as 1000000, 2.5K, 10M or 1B")
        }
        let notional = amount * factor
        guard notional > 0 else { throw .usage("invalid --notional '\(text)': the notional must be above 0") }
        guard notional <= maximum else {
            throw .usage("invalid --notional '\(text)': the notional must be at most 1e12")
        }
        return notional
    }
}
