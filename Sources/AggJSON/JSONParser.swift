#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a body is not JSON, with the byte offset where parsing stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes that keeps numbers as text.
///
/// It is written for the hot path (a 120 KB ticker list on every `agg quote`): one pass, no
/// intermediate tokens, strings without escapes copied straight from the input. Nesting is
/// capped so that hostile input cannot exhaust the stack.
public enum JSONParser {
    /// The deepest nesting accepted; real venue responses use fewer than ten levels.
    public static let maximumDepth = 256

    /// Parses a complete document; anything but white space after the value is an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let contiguous: [UInt8] = Array(bytes)
        return try contiguous.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            let value = try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            guard reader.offset == buffer.count else {
                throw reader.error("unexpected data after the JSON value")
            }
            return value
        }
    }

    /// Parses a document given as text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The parser's one pass over the document's bytes.
///
/// Why its unsafe buffer is sound: `bytes` is lent by `JSONParser.parse`'s
/// `withUnsafeBufferPointer` over an array that the parse owns, and the reader lives only inside
/// that closure (it is private, never stored, and every String it makes copies its bytes out);
/// every index is checked against `bytes.count` before it is read, and the rebased slices below
/// are ranges the scan has just walked. It reads a buffer rather than the array for speed (no
/// copy-on-write checks and no retain per access in the hot loop); the oracle of the parse is
/// `JSONFuzzTests` (every document written back and read again) and the decoders' comparison
/// with Foundation's `JSONDecoder` on every Bithumb ticker fixture.
private struct Reader: JSONByteScanning {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    /// Members of the objects being parsed, as a stack: each object appends its members and
    /// takes them off when it ends, so an object costs one exact-size allocation, not a
    /// doubling series.
    var memberStack: [JSONObject.Member] = []
    /// Elements of the arrays being parsed, likewise.
    var elementStack: [JSONValue] = []
    /// The key last seen at each member position. Venue objects in a list share their key order,
    /// so a key usually equals the one at the same position of the previous object and its
    /// String (often longer than the 15 bytes stored inline) is reused instead of allocated.
    var recentKeys: [String] = Array(repeating: "", count: 64)

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func expect(_ literal: StaticString, producing value: JSONValue) throws(JSONSyntaxError)
        -> JSONValue
    {
        try expect(literal)
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", producing: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", producing: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", producing: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(printable(byte))'")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth)")
        }
        offset += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            return .object(JSONObject())
        }
        let start = memberStack.count
        defer { memberStack.removeSubrange(start...) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseKey(position: memberStack.count - start)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            offset += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            memberStack.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return .object(JSONObject(Array(memberStack[start...])))
            case nil: throw error("unexpected end of input inside an object")
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    /// A member name, reusing the String of the key seen at the same position before when the
    /// bytes are equal.
    mutating func parseKey(position: Int) throws(JSONSyntaxError) -> String {
        let start = offset + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        guard position < recentKeys.count, end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            return try parseString()
        }
        let candidate = recentKeys[position]
        let length = end - start
        let same =
            candidate.utf8.count == length
            && candidate.utf8.withContiguousStorageIfAvailable { stored -> Bool in
                guard let storedBase = stored.baseAddress, let input = bytes.baseAddress else { return false }
                return memcmp(storedBase, input + start, length) == 0
            } == true
        if same {
            offset = end + 1
            return candidate
        }
        let key = try parseString()
        recentKeys[position] = key
        return key
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth)")
        }
        offset += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            return .array([])
        }
        let start = elementStack.count
        defer { elementStack.removeSubrange(start...) }
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            elementStack.append(element)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return .array(Array(elementStack[start...]))
            case nil: throw error("unexpected end of input inside an array")
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let range = try scanNumber()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        offset += 1
        let start = offset
        var highBits: UInt8 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            highBits |= byte
            if byte == UInt8(ascii: "\"") {
                // ASCII needs no validation; the generic validating initialiser costs more than
                // the rest of the parse for the short strings venues send.
                let text =
                    highBits < 0x80
                    ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                    : try validatedUTF8(start..<offset)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try scanEscapedString(from: start) }
            if byte < 0x20 { throw error("control character in a string") }
            offset += 1
        }
        throw error("unterminated string")
    }

    func validatedUTF8(_ range: Range<Int>) throws(JSONSyntaxError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw JSONSyntaxError(offset: range.lowerBound, reason: "invalid UTF-8 in a string")
        }
        return text
    }
}
