import FoundationEssentials

/// A change derived from a reference price and the last trade, for venues that send the
/// reference (an open) but no change of their own (Coinone, Kraken, OKX, Coinbase).
///
/// The change is exact; the percent is rounded half away from zero to `percentScale` decimals,
/// since a quotient of two decimals rarely ends.
public struct PriceChange: Sendable, Equatable {
    /// The decimals a derived percent is rounded to.
    public static let percentScale = 4

    /// `last - reference`, exact.
    public var change: Decimal
    /// `change / reference × 100`, rounded; `nil` when the reference is zero.
    public var percent: Decimal?

    public init(change: Decimal, percent: Decimal?) {
        self.change = change
        self.percent = percent
    }

    /// The change from `reference` to `last`, or `nil` when there is no reference.
    public static func from(_ reference: Decimal?, to last: Decimal) -> PriceChange? {
        guard let reference else { return nil }
        let change = last - reference
        let percent =
            reference == 0 ? nil : DecimalRounding.rounded(change / reference * 100, places: percentScale)
        return PriceChange(change: change, percent: percent)
    }
}
