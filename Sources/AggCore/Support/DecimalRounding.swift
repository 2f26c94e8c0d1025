import Foundation

/// Rounding of exact decimals, shared by the model (derived percents, conversions) and the
/// output formatting.
public enum DecimalRounding {
    /// `value` rounded half away from zero to `places` decimals.
    public static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        return output
    }
}
