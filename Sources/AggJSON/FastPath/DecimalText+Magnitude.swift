import FoundationEssentials

extension DecimalText {
    /// The power of ten of `value`'s leading digit, ⌊log10 |value|⌋ (2 for 123.4, -3 for
    /// 0.00123), read from the stored parts without any arithmetic on the `Decimal`; `nil` for
    /// zero and NaN, and when `DecimalTextFastPath` does not know this Foundation's layout (the
    /// caller then compares in full).
    ///
    /// A value m × 10^e whose mantissa m has d digits lies in [10^(e+d-1), 10^(e+d)), so it is at
    /// least 10^k exactly when e + d - 1 ≥ k: `ValueBounds` decides its bounds this way, where
    /// Foundation's comparison first brings both sides to one exponent (12% of a market-wide
    /// quote's instructions). Its oracle test is `ValueBoundsFastPathOracleTests`.
    package static func leadingPower(of value: Decimal) -> Int? {
        guard let parts = DecimalTextFastPath(value) else { return nil }
        return parts.exponent + parts.digitCount - 1
    }

    /// `value`'s stored parts, `value = ±mantissa × 10^exponent` with `digits` decimal digits in
    /// `mantissa`, read without any arithmetic on the `Decimal`; `nil` for zero and NaN, and
    /// when `DecimalTextFastPath` does not know this Foundation's layout (the caller then uses
    /// Foundation's operators).
    package static func parts(of value: Decimal) -> (negative: Bool, exponent: Int, mantissa: UInt128, digits: Int)? {
        guard let parts = DecimalTextFastPath(value) else { return nil }
        return (parts.negative, parts.exponent, parts.mantissa, parts.digitCount)
    }
}
