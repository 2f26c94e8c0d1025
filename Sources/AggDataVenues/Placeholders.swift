/// Literal placeholders such as `{base}` in venue files' paths and symbol templates. The work
/// is done by the fast path on bytes (FastPath/Placeholders+FastPath.swift); the plain versions
/// beside it here are the standard library's, and the oracle test
/// (`PlaceholdersFastPathOracleTests`) holds the two to the same results.
extension String {
    /// How many times `placeholder` (ASCII) occurs, counted from the left without overlaps.
    func occurrences(of placeholder: String) -> Int {
        occurrencesFastPath(of: placeholder)
    }

    /// This text with every occurrence of `placeholder` (ASCII), from the left and without
    /// overlaps, replaced by `replacement`.
    func replacingPlaceholder(_ placeholder: String, with replacement: String) -> String {
        replacingPlaceholderFastPath(placeholder, with: replacement)
    }

    /// The plain version of `occurrences(of:)`: the standard library's Character-based search.
    func plainOccurrences(of placeholder: String) -> Int {
        ranges(of: placeholder).count
    }

    /// The plain version of `replacingPlaceholder(_:with:)`: the standard library's.
    func plainReplacingPlaceholder(_ placeholder: String, with replacement: String) -> String {
        replacing(placeholder, with: replacement)
    }
}

/// Text placed into a URL's path or query by a venue file's placeholders.
enum PathText {
    /// `value` as one percent-encoded piece: bytes other than letters, digits and `-_.~:` become
    /// `%XX`, and a value of dots only has them encoded too, so that what fills a placeholder
    /// can never add a `/`, `?`, `#`, `&`, `=` or a `.`/`..` segment to the URL, whatever it is.
    /// (Market codes are letters and digits, so today this changes nothing; it keeps the URL
    /// safe should a code ever come from elsewhere.)
    static func encoded(_ value: String) -> String {
        let onlyDots = !value.isEmpty && value.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if !onlyDots, isKept(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex(byte >> 4), hex(byte & 0x0F)]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"), UInt8(ascii: ":"):
            true
        default: false
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
