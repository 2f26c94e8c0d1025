import FoundationEssentials

/// A rate an FX source sent that cannot be an exchange rate, and why.
///
/// A rate of zero would make every conversion through it zero or a division by zero; a negative
/// one has no meaning; one beyond `RateRefusal.plausible` is a unit or parsing error at the
/// source (the widest spread between two currencies the provider lists is about 10^6). Such a
/// rate is left out of its table and reported, and the table is not stored, so a bad answer
/// never becomes the "previous day" of later comparisons.
public struct RateRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The currency code (`KRW`).
    public var code: String
    /// The rate as the source sent it, exactly.
    public var text: String
    /// Why it was refused.
    public var reason: String

    public init(code: String, text: String, reason: String) {
        self.code = code
        self.text = text
        self.reason = reason
    }

    /// `KRW rate 0 refused: an exchange rate must be above zero`.
    public var description: String { "\(code) rate \(text) refused: \(reason)" }

    /// The smallest rate believed: 10^-12.
    public static let lowest = Decimal(sign: .plus, exponent: -12, significand: 1)
    /// The largest rate believed: 10^12.
    public static let highest = Decimal(sign: .plus, exponent: 12, significand: 1)

    /// Why `rate` cannot be an exchange rate, or `nil` when it can.
    public static func problem(with rate: Decimal) -> String? {
        if rate.isNaN || !rate.isFinite { return "not a finite number" }
        if rate <= 0 { return "an exchange rate must be above zero" }
        if rate < lowest || rate > highest { return "outside 1e-12 to 1e12, the range of plausible exchange rates" }
        return nil
    }

    /// The refusal of `rate` for `code`, or `nil` when the rate is plausible.
    public static func check(code: String, rate: Decimal) -> RateRefusal? {
        problem(with: rate).map { RateRefusal(code: code, text: rate.description, reason: $0) }
    }
}

extension RateTable {
    /// This table with every rate in `rates` that cannot be an exchange rate moved to `refused`
    /// (for tables that did not come through a validating adapter: another source, an old
    /// database), `refused` sorted by code.
    public func screened() -> RateTable {
        var table = self
        for (code, rate) in rates {
            guard let refusal = RateRefusal.check(code: code, rate: rate) else { continue }
            table.rates[code] = nil
            table.refused.append(refusal)
        }
        table.refused.sort { $0.code < $1.code }
        return table
    }
}
