import AggJSON
import FoundationEssentials

/// The fast path of the book walks' comparisons (`BookSide`, `ArbitrageInputs`): whether one
/// decimal is below another, decided from their signs, exponents and mantissas
/// (`DecimalText.parts(of:)`) in 128-bit integers, where Foundation's `<` brings both sides to
/// one exponent in heap-allocated digit arrays (a route at 10M on 30-level books makes about a
/// hundred comparisons). Zero, NaN, an unknown layout, or a mantissa that would need more than 38
/// digits once brought to the other's exponent go to Foundation's `<`, the plain version. Its oracle test
/// (`DecimalOrderFastPathOracleTests`) requires the same answer as `<` on every pair of
/// neighbouring decimals in the fixtures, both ways, on equal values written differently, and
/// on random values of every width and exponent.
enum DecimalOrder {
    /// `a < b`.
    static func isLess(_ a: Decimal, _ b: Decimal) -> Bool {
        isLessFastPath(a, b) ?? plainIsLess(a, b)
    }

    /// The plain version: Foundation's comparison.
    static func plainIsLess(_ a: Decimal, _ b: Decimal) -> Bool {
        a < b
    }

    /// `a < b` from the stored parts; `nil` when the parts cannot decide (the caller asks
    /// Foundation).
    static func isLessFastPath(_ a: Decimal, _ b: Decimal) -> Bool? {
        guard let x = DecimalText.parts(of: a), let y = DecimalText.parts(of: b) else { return nil }
        if x.negative != y.negative { return x.negative }
        // Both of one sign: compare the magnitudes, then read the answer for that sign.
        guard let order = magnitudeOrder(x, y) else { return nil }
        if order == 0 { return false }
        return x.negative ? order > 0 : order < 0
    }

    /// -1, 0 or 1 as |x| is below, equal to or above |y|; `nil` when a mantissa brought to the
    /// other's exponent would need more than 38 digits.
    private static func magnitudeOrder(
        _ x: (negative: Bool, exponent: Int, mantissa: UInt128, digits: Int),
        _ y: (negative: Bool, exponent: Int, mantissa: UInt128, digits: Int)
    ) -> Int? {
        // A mantissa of d digits at exponent e lies in [10^(e+d-1), 10^(e+d)).
        let xTop = x.exponent + x.digits
        let yTop = y.exponent + y.digits
        if xTop != yTop { return xTop < yTop ? -1 : 1 }
        // The same leading power: bring the one with the larger exponent down to the other's.
        var xm = x.mantissa
        var ym = y.mantissa
        let shift = x.exponent - y.exponent
        if shift > 0 {
            guard let scaled = DecimalArithmetic.scaled(xm, digits: x.digits, by: shift) else { return nil }
            xm = scaled
        } else if shift < 0 {
            guard let scaled = DecimalArithmetic.scaled(ym, digits: y.digits, by: -shift) else { return nil }
            ym = scaled
        }
        return xm == ym ? 0 : (xm < ym ? -1 : 1)
    }
}
