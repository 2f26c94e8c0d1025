/// Literal placeholders such as `{base}` in venue files' paths and symbol templates, found and
/// replaced byte by byte.
///
/// The standard library's `ranges(of:)` and `replacing(_:with:)` match Characters through a
/// generic searcher: on one venue file they cost 0.8 M instructions, more than the rest of
/// reading it, in every agg process. A placeholder is ASCII, and an ASCII byte is never part of
/// another character's UTF-8, so matching bytes finds every whole occurrence; the texts around
/// placeholders are then checked to be ASCII anyway.
extension String {
    /// How many times `placeholder` (ASCII) occurs, counted from the left without overlaps.
    func occurrences(of placeholder: String) -> Int {
        Self.offsets(of: placeholder, in: Array(utf8)).count
    }

    /// This text with every occurrence of `placeholder` (ASCII), from the left and without
    /// overlaps, replaced by `replacement`.
    func replacingPlaceholder(_ placeholder: String, with replacement: String) -> String {
        let text = Array(utf8)
        let offsets = Self.offsets(of: placeholder, in: text)
        guard !offsets.isEmpty else { return self }
        let length = placeholder.utf8.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count + offsets.count * replacement.utf8.count)
        var start = 0
        for offset in offsets {
            bytes += text[start..<offset]
            bytes += replacement.utf8
            start = offset + length
        }
        bytes += text[start...]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The byte offsets in `text` where `placeholder` starts, from the left, without overlaps.
    private static func offsets(of placeholder: String, in text: [UInt8]) -> [Int] {
        assert(placeholder.utf8.allSatisfy { $0 < 0x80 }, "placeholders are ASCII")
        let piece = Array(placeholder.utf8)
        guard !piece.isEmpty else { return [] }
        var offsets: [Int] = []
        var index = 0
        while index + piece.count <= text.count {
            if text[index] == piece[0], text[index..<(index + piece.count)].elementsEqual(piece) {
                offsets.append(index)
                index += piece.count
            } else {
                index += 1
            }
        }
        return offsets
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
