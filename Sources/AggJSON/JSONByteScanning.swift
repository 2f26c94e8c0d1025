/// What the tree parser (`JSONParser`) and the tape reader (`JSONTape`) share, so the two read
/// the same grammar with the same errors: a position in the bytes, and the `\u` escapes.
protocol JSONByteScanning {
    var bytes: UnsafeBufferPointer<UInt8> { get }
    var offset: Int { get set }
}

extension JSONByteScanning {
    /// A syntax error at the current offset.
    func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, reason: reason)
    }

    /// The byte at the offset; `nil` at the end.
    @inline(__always)
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    @inline(__always)
    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// Reads `literal` (`true`, `false`, `null`) at the offset.
    mutating func expect(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("truncated literal") }
        let start = literal.utf8Start
        for index in 0..<count where bytes[offset + index] != start[index] {
            throw error("invalid literal")
        }
        offset += count
    }

    /// Reads a number token in JSON's grammar (a sign, no leading zeros, a fraction and an
    /// exponent each with at least one digit); its bytes' range.
    mutating func scanNumber() throws(JSONSyntaxError) -> Range<Int> {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, isDigit(first) else { throw error("expected a digit") }
        if first == UInt8(ascii: "0") {
            offset += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            guard let digit = current, isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard let digit = current, isDigit(digit) else {
                throw error("expected a digit in the exponent")
            }
            skipDigits()
        }
        return start..<offset
    }

    @inline(__always)
    mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }

    /// The slow path of a string, taken only by strings that contain a backslash: the text from
    /// `start` (after the opening quote) with its escapes decoded, checked as UTF-8, the offset
    /// after the closing quote.
    @discardableResult
    mutating func scanEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return text
            case UInt8(ascii: "\\"):
                offset += 1
                guard let escape = current else { throw error("unterminated escape") }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape '\\\(printable(escape))'")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scalars.append(byte)
                offset += 1
            }
        }
        throw error("unterminated string")
    }

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
