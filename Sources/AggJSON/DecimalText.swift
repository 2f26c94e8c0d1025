import FoundationEssentials

/// Exact conversion between decimal text and `Decimal`, never through `Double`.
///
/// Venues send prices as JSON numbers or strings, with trailing zeros (`"80630000.0000"`),
/// without a leading zero (`".5"`), with an exponent (`1E-7`) and, in a few older APIs, with
/// thousands separators (`"1,234.5"`). All of these parse to the same exact value.
public enum DecimalText {
    /// Why a text is not a decimal number.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case invalid(String)
        /// More than 38 significant digits, or an exponent `Decimal` cannot hold.
        case outOfRange(String)

        public var description: String {
            switch self {
            case .empty: "an empty number"
            case .invalid(let text): "'\(abbreviated(text))' is not a decimal number"
            case .outOfRange(let text): "'\(abbreviated(text))' is out of the range of exact decimals"
            }
        }
    }

    /// The most significant digits a `Decimal` holds exactly.
    public static let maximumDigits = 38

    /// Parses `text` into an exact `Decimal`.
    public static func parse(_ text: some StringProtocol) throws(Failure) -> Decimal {
        if let outcome = text.utf8.withContiguousStorageIfAvailable(parseBytes) {
            return try outcome.get(text)
        }
        return try Array(text.utf8).withUnsafeBufferPointer(parseBytes).get(text)
    }

    /// The outcome of a parse, before the original text is attached to a failure.
    private enum Outcome {
        case value(Decimal)
        case empty, invalid, outOfRange

        func get(_ text: some StringProtocol) throws(Failure) -> Decimal {
            switch self {
            case .value(let value): return value
            case .empty: throw .empty
            case .invalid: throw .invalid(String(text))
            case .outOfRange: throw .outOfRange(String(text))
            }
        }
    }

    private static func parseBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        var index = 0
        let count = bytes.count
        while index < count, bytes[index] == 0x20 { index += 1 }
        var end = count
        while end > index, bytes[end - 1] == 0x20 { end -= 1 }
        guard index < end else { return .empty }

        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }

        // Significant digits accumulate into a 128-bit integer without any allocation. Leading
        // zeros are skipped and zeros are held back until a non-zero digit follows, so trailing
        // zeros ("80630000.00000000") fold into the exponent instead of using up the 38 digits.
        var significand: UInt128 = 0
        var digitCount = 0
        var pendingZeros = 0
        var tooManyDigits = false
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        var lastWasDigit = false
        var groupLength = -1  // digits since the last thousands separator, -1 when none seen
        var leadingDigits = 0  // integer digits before any separator: the first group holds 1 to 3

        while index < end {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                lastWasDigit = true
                if groupLength >= 0 { groupLength += 1 } else if !sawPoint { leadingDigits += 1 }
                if sawPoint { exponent -= 1 }
                let digit = byte - UInt8(ascii: "0")
                if digit == 0 {
                    if digitCount > 0 { pendingZeros += 1 }
                } else if digitCount + pendingZeros + 1 > maximumDigits {
                    tooManyDigits = true
                } else {
                    for _ in 0..<pendingZeros { significand *= 10 }
                    significand = significand * 10 + UInt128(digit)
                    digitCount += pendingZeros + 1
                    pendingZeros = 0
                }
            case UInt8(ascii: ","):
                guard !sawPoint, lastWasDigit, groupLength == 3 || (groupLength == -1 && leadingDigits <= 3) else {
                    return .invalid
                }
                groupLength = 0
                lastWasDigit = false
            case UInt8(ascii: "."):
                guard !sawPoint, groupLength == -1 || groupLength == 3 else { return .invalid }
                sawPoint = true
                groupLength = -1
                lastWasDigit = false
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, groupLength == -1 || groupLength == 3 else { return .invalid }
                index += 1
                guard let value = parseExponent(bytes, from: index, to: end) else { return .invalid }
                exponent += value
                index = end
                continue
            default:
                return .invalid
            }
            index += 1
        }
        guard sawDigit, groupLength == -1 || groupLength == 3, lastWasDigit || sawPoint else {
            return .invalid
        }

        exponent += pendingZeros
        if digitCount == 0 && !tooManyDigits { return .value(Decimal(0)) }
        guard !tooManyDigits, (-128...127).contains(exponent) else { return .outOfRange }

        let value: Decimal
        if significand <= UInt128(UInt64.max) {
            value = Decimal(UInt64(significand))
        } else {
            let split: UInt128 = 10_000_000_000_000_000_000
            value =
                Decimal(UInt64(significand / split)) * Decimal(sign: .plus, exponent: 19, significand: 1)
                + Decimal(UInt64(significand % split))
        }
        return .value(Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: value))
    }

    private static func parseExponent(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int? {
        var index = start
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < end else { return nil }
        var value = 0
        while index < end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Anything past a million is far outside Decimal's range; stop growing.
            if value < 1_000_000 { value = value * 10 + Int(digit) }
            index += 1
        }
        return negative ? -value : value
    }

    /// The plain decimal text of `value`: no exponent, no grouping, `-` for negatives.
    public static func format(_ value: Decimal) -> String {
        value.description
    }
}

private func abbreviated(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(20)) + "…(\(text.count) characters)" : text
}
