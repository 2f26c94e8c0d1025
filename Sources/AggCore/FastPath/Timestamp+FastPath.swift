/// The fast path of `Timestamp.plainISO8601`: the digits written straight into the bytes of
/// the result, without an interpolated `String` per field. Every quote, alert and stored row
/// writes one or more timestamps; through interpolation they cost more than the rest of a
/// quote's JSON. Its oracle test (`TimestampFastPathOracleTests`) requires the same text as the
/// plain version on every fixture instant, on edge instants and on random ones.
extension Timestamp {
    /// `iso8601(fractionDigits:)` for a year of four digits, or `nil` for any other year (the
    /// caller then takes the plain version).
    @inline(__always)
    func iso8601FastPath(fractionDigits: Int) -> String? {
        let parts = civilParts(offsetSeconds: 0)
        guard (0...9999).contains(parts.year) else { return nil }
        let length = fractionDigits > 0 ? 24 : 20
        // Sound: `writeISO8601` writes exactly `length` ASCII bytes (20 without a fraction, 24
        // with one) into a buffer of that capacity, and answers that count.
        return String(unsafeUninitializedCapacity: length) { buffer in
            Timestamp.writeISO8601(parts, fraction: fractionDigits > 0, into: buffer)
        }
    }

    /// Appends `description` for a year of four digits and answers `true`; `false` (nothing
    /// appended) for any other year.
    @inline(__always)
    func appendISO8601FastPath(to bytes: inout [UInt8]) -> Bool {
        let parts = civilParts(offsetSeconds: 0)
        guard (0...9999).contains(parts.year) else { return false }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 24))
        // Sound: the 24 bytes just appended are the rebased slice the writer gets, inside the
        // closure that lends the array's storage, and it writes exactly 24 with a fraction.
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = Timestamp.writeISO8601(
                parts, fraction: true, into: UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + 24)]))
        }
        return true
    }

    /// Writes `YYYY-MM-DDThh:mm:ss[.mmm]Z` for a year of four digits into `buffer` (20 or 24
    /// bytes) and answers the length. Every field is in range for its width (year 0 to 9999,
    /// the others from `civilParts`), so each digit is one ASCII byte.
    private static func writeISO8601(
        _ parts: CivilTime, fraction: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var index = 0
        func put(_ value: Int, _ width: Int) {
            var rest = value
            for offset in stride(from: width - 1, through: 0, by: -1) {
                buffer[index + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            index += width
        }
        func put(_ ascii: Unicode.Scalar) {
            buffer[index] = UInt8(ascii: ascii)
            index += 1
        }
        put(parts.year, 4)
        put("-")
        put(parts.month, 2)
        put("-")
        put(parts.day, 2)
        put("T")
        put(parts.hour, 2)
        put(":")
        put(parts.minute, 2)
        put(":")
        put(parts.second, 2)
        if fraction {
            put(".")
            put(parts.millisecond, 3)
        }
        put("Z")
        return index
    }
}
