import FoundationEssentials

/// Exact conversion between decimal text and `Decimal`, never through `Double`.
///
/// One grammar for every decimal agg reads (prices, sizes, fees, FX rates, alert values, stored
/// values), in two forms:
/// - `.plain`, a decimal written as text (a JSON string, a rule, a database column):
///   `-?(0|[1-9][0-9]*)(.[0-9]+)?`. No exponent (`"1e3"`), no leading zeros (`"00123"`; `"0.5"`
///   is fine), no `+`, no separators, no white space, no `NaN` or `Infinity`.
/// - `.jsonNumber`, a JSON number token: the same, and an exponent may follow (`1.2E-4`, as
///   Upbit sends); it is converted exactly, never through `Double`.
///
/// Anything else fails: thousands separators and decimal commas (`"1,234"` would be read 1000
/// times too small or too large depending on the venue's locale), white space (`" 123"`), a `+`
/// sign, and a point without digits on both sides (`".5"`, `"5."`).
public enum DecimalText {
    /// Which form of the grammar a text is read in.
    public enum Form: Sendable {
        /// A decimal written as text: no exponent.
        case plain
        /// A JSON number token: an exponent is allowed.
        case jsonNumber
    }

    /// Why a text is not a decimal number.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text is empty.
        case empty
        /// The text is not in the grammar.
        case invalid(String)
        /// More than 38 significant digits, or an exponent `Decimal` cannot hold.
        case outOfRange(String)
        /// A plain decimal written with an exponent (`"1e3"`).
        case exponent(String)
        /// Zeros before the first digit of the whole part (`"00123"`).
        case leadingZeros(String)

        public var description: String {
            switch self {
            case .empty: "an empty number"
            case .invalid(let text): "'\(abbreviated(text))' is not a decimal number"
            case .exponent(let text):
                "'\(abbreviated(text))' has an exponent: a decimal written as text must be written out in full"
            case .leadingZeros(let text): "'\(abbreviated(text))' has leading zeros"
            case .outOfRange(let text): "'\(abbreviated(text))' is out of the range of exact decimals"
            }
        }
    }

    /// The most significant digits a `Decimal` holds exactly.
    public static let maximumDigits = 38

    /// Parses `text`, in the grammar's `form` (plain text unless told), into an exact `Decimal`.
    public static func parse(_ text: some StringProtocol, form: Form = .plain) throws(Failure) -> Decimal {
        if let outcome = text.utf8.withContiguousStorageIfAvailable({ parseBytes($0, form: form) }) {
            return try outcome.get(text)
        }
        return try Array(text.utf8).withUnsafeBufferPointer { parseBytes($0, form: form) }.get(text)
    }

    /// `parse(String(decoding: bytes, as: UTF8.self), form:)` without making the String unless
    /// the bytes are not a decimal (the lazy JSON reader's numbers, `JSONTape`).
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, form: Form) throws(Failure) -> Decimal {
        let outcome = parseBytes(bytes, form: form)
        if case .value(let value) = outcome { return value }
        return try outcome.get(String(decoding: bytes, as: UTF8.self))
    }

    /// The outcome of a parse, before the original text is attached to a failure.
    private enum Outcome {
        case value(Decimal)
        case empty, invalid, outOfRange, exponent, leadingZeros

        func get(_ text: some StringProtocol) throws(Failure) -> Decimal {
            switch self {
            case .value(let value): return value
            case .empty: throw .empty
            case .invalid: throw .invalid(String(text))
            case .outOfRange: throw .outOfRange(String(text))
            case .exponent: throw .exponent(String(text))
            case .leadingZeros: throw .leadingZeros(String(text))
            }
        }
    }

    private static func parseBytes(_ bytes: UnsafeBufferPointer<UInt8>, form: Form) -> Outcome {
        let count = bytes.count
        guard count > 0 else { return .empty }
        let negative = bytes[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        // "0123" and "00.5": a zero may begin the whole part only when it is the whole part.
        if index + 1 < count, bytes[index] == UInt8(ascii: "0"),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1])
        {
            var first = index
            while first + 1 < count, bytes[first] == UInt8(ascii: "0"),
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[first + 1])
            {
                first += 1
            }
            switch parseBytes(UnsafeBufferPointer(rebasing: bytes[first...]), form: form) {
            case .value, .outOfRange, .leadingZeros, .exponent: return .leadingZeros
            case let other: return other
            }
        }

        // Significant digits accumulate into a 128-bit integer without any allocation. Leading
        // zeros are skipped and zeros are held back until a non-zero digit follows, so trailing
        // zeros ("80630000.00000000") fold into the exponent instead of using up the 38 digits.
        var significand: UInt128 = 0
        var digitCount = 0
        var pendingZeros = 0
        var tooManyDigits = false
        var exponent = 0
        var integerDigits = 0
        var fractionDigits = 0
        var inFraction = false

        scan: while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inFraction {
                    fractionDigits += 1
                    exponent -= 1
                } else {
                    integerDigits += 1
                }
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
            case UInt8(ascii: "."):
                // Digits on both sides: ".5" and "5." are not numbers here.
                guard !inFraction, integerDigits > 0 else { return .invalid }
                inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard form == .jsonNumber else {
                    let wellFormed =
                        integerDigits > 0 && (!inFraction || fractionDigits > 0)
                        && parseExponent(bytes, from: index + 1, to: count) != nil
                    return wellFormed ? .exponent : .invalid
                }
                break scan
            default:
                // Thousands separators, decimal commas, white space and a leading `+` all end
                // up here: a comma would misread a price 1000 times.
                return .invalid
            }
            index += 1
        }
        guard integerDigits > 0, !inFraction || fractionDigits > 0 else { return .invalid }
        if index < count {
            guard let value = parseExponent(bytes, from: index + 1, to: count) else { return .invalid }
            exponent += value
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
}

private func abbreviated(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(20)) + "…(\(text.count) characters)" : text
}
