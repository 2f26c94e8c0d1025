import FoundationEssentials

extension DecimalText {
    /// The plain decimal text of `value`: no exponent, no grouping, `-` for negatives; exactly
    /// `value.description`, which stays the reference (`"80630000"`, `"-0.54"`, `"0.00000001"`,
    /// `"NaN"`).
    ///
    /// Foundation's `description` divides the whole 128-bit mantissa by ten once per digit and
    /// builds the text a character at a time, backwards; on a market-wide answer that was most
    /// of agg's time. This reads the mantissa and exponent once and writes the digits directly.
    /// The work is done by `DecimalTextFastPath` (FastPath/DecimalText+FastPath.swift), whose
    /// oracle test holds it to `plainFormat` byte for byte.
    public static func format(_ value: Decimal) -> String {
        guard let fast = DecimalTextFastPath(value) else { return plainFormat(value) }
        return fast.text
    }

    /// The plain version of `format`, and what it falls back to for NaN, zero and an unknown
    /// layout: Foundation's `description`.
    static func plainFormat(_ value: Decimal) -> String {
        value.description
    }

    /// Writes the text of `format(value)` as UTF-8 at the start of `buffer` and answers its
    /// length, or `nil` when it does not fit.
    public static func write(_ value: Decimal, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let parts = DecimalTextFastPath(value) else {
            var text = plainFormat(value)
            return text.withUTF8 { utf8 in
                guard utf8.count <= buffer.count else { return nil }
                _ = buffer.initialize(fromContentsOf: utf8)
                return utf8.count
            }
        }
        guard parts.textLength <= buffer.count else { return nil }
        return parts.write(into: buffer)
    }

    /// Appends the text of `format(value)` as UTF-8 to `bytes`, without making a `String`.
    public static func append(_ value: Decimal, to bytes: inout [UInt8]) {
        guard let parts = DecimalTextFastPath(value) else {
            bytes.append(contentsOf: plainFormat(value).utf8)
            return
        }
        parts.append(to: &bytes)
    }
}
