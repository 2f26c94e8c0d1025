/// The fast path of `plainOccurrences(of:)` and `plainReplacingPlaceholder(_:with:)`: literal
/// placeholders such as `{base}` found and replaced byte by byte.
///
/// The standard library's `ranges(of:)` and `replacing(_:with:)` match Characters through a
/// generic searcher: on one venue file they cost 0.8 M instructions, more than the rest of
/// reading it, in every agg process. A placeholder is ASCII, and an ASCII byte is never part of
/// another character's UTF-8, so matching bytes finds every whole occurrence; the texts around
/// placeholders are then checked to be ASCII anyway. No unsafe code: only the representation
/// differs.
extension String {
    /// `occurrences(of:)` on bytes.
    func occurrencesFastPath(of placeholder: String) -> Int {
        Self.offsets(of: placeholder, in: Array(utf8)).count
    }

    /// `replacingPlaceholder(_:with:)` on bytes.
    func replacingPlaceholderFastPath(_ placeholder: String, with replacement: String) -> String {
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
