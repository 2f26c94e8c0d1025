/// The characters a terminal acts on rather than shows, beyond the C0 controls: agg's one
/// escaping policy. Tables, stderr lines and CSV show them as visible escapes
/// (`TerminalText.escape` in AggCLI); JSON writes them as `\uXXXX`. Text from outside agg (a
/// venue's market name or error message) could otherwise recolour or clear the screen (C1 CSI,
/// U+009B), or make text read backwards (U+202E).
public enum TerminalControls {
    /// Whether `scalar` could act on a terminal: C0 controls (tab, CR and LF too), DEL, C1
    /// controls, the Arabic letter mark, left-to-right and right-to-left marks, bidirectional
    /// embeddings, overrides and isolates, and the line and paragraph separators.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029: true
        default: false
        }
    }

    /// Whether a UTF-8 byte can start one of the controls above at or beyond DEL: DEL itself,
    /// 0xC2 (U+0080–U+00BF), 0xD8 (U+0600–U+063F) and 0xE2 (U+2000–U+2FFF).
    public static func mayStart(_ byte: UInt8) -> Bool {
        byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    /// The control of the set above at or beyond DEL that starts at `index` of valid UTF-8
    /// `utf8`, with its length in bytes; `nil` when the character there is not one.
    static func control(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int)? {
        let lead = utf8[index]
        let length =
            switch lead {
            case 0x7F: 1
            case 0xC2, 0xD8: 2
            case 0xE2: 3
            default: 0
            }
        guard length > 0, index + length <= utf8.count else { return nil }
        var value: UInt32
        switch length {
        case 1: value = UInt32(lead)
        case 2: value = UInt32(lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
        default:
            value = UInt32(lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), contains(scalar) else { return nil }
        return (value, length)
    }
}
