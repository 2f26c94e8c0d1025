import Foundation

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

        // Significant digits go into two 19-digit halves; leading zeros are skipped.
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
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
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) {
                    digits.append(byte - UInt8(ascii: "0"))
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

        // Trailing zeros carry no value; folding them into the exponent keeps numbers like
        // "80630000.00000000" within 38 digits.
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return .value(Decimal(0)) }
        guard digits.count <= maximumDigits else { return .outOfRange }
        guard (-128...127).contains(exponent) else { return .outOfRange }

        var high: UInt64 = 0
        var low: UInt64 = 0
        let split = max(0, digits.count - 19)
        for digit in digits[..<split] { high = high * 10 + UInt64(digit) }
        for digit in digits[split...] { low = low * 10 + UInt64(digit) }
        var significand = Decimal(low)
        if split > 0 {
            significand += Decimal(high) * Decimal(sign: .plus, exponent: 19, significand: 1)
        }
        return .value(
            Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: significand))
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
