/// What the tree parser (`JSONParser`) and the tape reader (`JSONTape`) share, so the two read
/// the same grammar with the same errors: a position in the bytes, and the `\u` escapes.
protocol JSONByteScanning {
    var bytes: UnsafeBufferPointer<UInt8> { get }
    var offset: Int { get set }
    /// A syntax error at the current offset.
    func error(_ reason: String) -> JSONSyntaxError
}

extension JSONByteScanning {
    /// The four hex digits of a `\u` escape, the offset after them.
    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    /// The scalar of a `\u` escape, a surrogate pair read as one.
    mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard offset + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                bytes[offset + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            offset += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error("unpaired surrogate in \\u escape")
            }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw error("invalid \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw error("unpaired surrogate in \\u escape")
        }
        return scalar
    }
}

@inline(__always)
func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
}

/// `byte` as it can be shown in an error: itself when printable ASCII, else `\x..`.
func printable(_ byte: UInt8) -> String {
    (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
}
