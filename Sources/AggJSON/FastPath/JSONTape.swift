import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fast path of `JSONParser.parse` for documents read a few fields at a time (a stream's
/// ticker message): the same strict RFC 8259 grammar checked in one pass, but instead of a
/// `JSONValue` tree with a String for every key and value it records where each value lies in
/// the document's bytes (a flat, preorder list of nodes). `JSONCursor` reads it lazily: a member
/// is found by comparing key bytes, a decimal is read from the bytes of its token, and a String
/// is made only when asked for.
///
/// Its plain version is `JSONParser.parse`: the oracle test (`JSONTapeOracleTests`) requires the
/// same acceptance and the same syntax error (offset and reason) on every fixture and on damaged
/// and random documents, and the same answer from every cursor accessor at every path.
final class JSONTape: Sendable {
    /// What a node is.
    enum Kind: UInt8, Sendable {
        case null, bool, number, string, array, object
    }

    /// One value of the document. Containers are followed by their children (an object's as
    /// key, value, key, value …); `end` of a container is the index of the node after its
    /// subtree.
    struct Node: Sendable {
        var kind: Kind
        /// Strings: the text has a backslash escape, so its bytes are not its UTF-8.
        var escaped: Bool
        /// Strings: some byte of the text is not ASCII.
        var nonASCII: Bool
        /// Booleans: the value.
        var flag: Bool
        /// Strings: the first byte after the opening quote; numbers: the token's first byte;
        /// containers: the number of children (members count twice).
        var start: Int32
        /// Strings and numbers: the byte after the text; containers: the node after the subtree.
        var end: Int32
    }

    let bytes: [UInt8]
    let nodes: [Node]

    private init(bytes: [UInt8], nodes: [Node]) {
        self.bytes = bytes
        self.nodes = nodes
    }

    /// The document `bytes`, checked as `JSONParser.parse` checks it.
    ///
    /// - Throws: the `JSONSyntaxError` `JSONParser.parse` throws for the same bytes.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape {
        let nodes = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> [Node] in
            var reader = TapeReader(bytes: buffer)
            reader.skipWhitespace()
            try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            guard reader.offset == buffer.count else {
                throw reader.error("unexpected data after the JSON value")
            }
            return reader.nodes
        }
        return JSONTape(bytes: bytes, nodes: nodes)
    }

    /// The kind of node `index`.
    @inline(__always)
    func kind(_ index: Int) -> Kind { nodes[index].kind }

    /// The index of the node after node `index`'s subtree.
    @inline(__always)
    func next(_ index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .array || node.kind == .object ? Int(node.end) : index + 1
    }

    /// The text of string or number node `index` (a string's escapes decoded).
    func text(_ index: Int) -> String {
        let node = nodes[index]
        if node.escaped {
            // Checked when parsed: the escapes are valid and the text is UTF-8.
            return TapeReader.unescaped(bytes, from: Int(node.start), to: Int(node.end))
        }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(node.start)..<Int(node.end)]), as: UTF8.self)
        }
    }

    /// Whether node `index` is the empty string.
    @inline(__always)
    func isEmptyString(_ index: Int) -> Bool {
        let node = nodes[index]
        return node.kind == .string && node.start == node.end
    }

    /// The exact decimal of string or number node `index` in `form`, read from its bytes (from
    /// its decoded text when it has escapes), as `DecimalText.parse(text(index), form:)` reads it.
    func decimal(_ index: Int, form: DecimalText.Form) throws(DecimalText.Failure) -> Decimal {
        let node = nodes[index]
        guard !node.escaped else { return try DecimalText.parse(text(index), form: form) }
        // Sound: the range was walked by the parse, inside the array, which this tape keeps.
        return try bytes.withUnsafeBufferPointer { all throws(DecimalText.Failure) in
            try DecimalText.parse(utf8: UnsafeBufferPointer(rebasing: all[Int(node.start)..<Int(node.end)]), form: form)
        }
    }

    /// The value of the first member of object node `object` whose name is `key` (names compared
    /// as `JSONObject`'s subscript compares them), or `nil`.
    func member(_ object: Int, _ key: String) -> Int? {
        var name = key
        return name.withUTF8 { wanted -> Int? in
            let wantedASCII = wanted.allSatisfy { $0 < 0x80 }
            return bytes.withUnsafeBufferPointer { all -> Int? in
                var child = object + 1
                let end = Int(nodes[object].end)
                while child < end {
                    let value = child + 1
                    if sameName(child, wanted, wantedASCII: wantedASCII, in: all, key) { return value }
                    child = next(value)
                }
                return nil
            }
        }
    }

    /// Whether key node `index` names `key` (`wanted`, its UTF-8): decided on the bytes where
    /// bytes decide, as `JSONObject.sameNameFastPath` decides (equal bytes are equal names; two
    /// ASCII texts of different lengths, or whose first difference is ASCII in both, are
    /// different), else by `JSONObject.sameName`.
    ///
    /// Sound: `all` is this tape's bytes, lent by `member`; the node's range was walked by the
    /// parse inside them.
    @inline(__always)
    private func sameName(
        _ index: Int, _ wanted: UnsafeBufferPointer<UInt8>, wantedASCII: Bool, in all: UnsafeBufferPointer<UInt8>,
        _ key: String
    ) -> Bool {
        let node = nodes[index]
        if !node.escaped, let base = all.baseAddress {
            let start = Int(node.start)
            let count = Int(node.end) - start
            if count == wanted.count {
                if count == 0 { return true }
                if let other = wanted.baseAddress, memcmp(base + start, other, count) == 0 { return true }
            } else if wantedASCII && !node.nonASCII {
                return false
            }
            let shorter = Swift.min(count, wanted.count)
            var offset = 0
            while offset < shorter, base[start + offset] == wanted[offset] { offset += 1 }
            let x = offset < count ? base[start + offset] : 0
            let y = offset < wanted.count ? wanted[offset] : 0
            if x < 0x80 && y < 0x80 { return false }
        }
        return JSONObject.sameName(text(index), key)
    }

    /// The `JSONValue` of node `index` and its subtree, as `JSONParser.parse` builds it.
    func value(_ index: Int) -> JSONValue {
        let node = nodes[index]
        switch node.kind {
        case .null: return .null
        case .bool: return .bool(node.flag)
        case .number: return .number(text(index))
        case .string: return .string(text(index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(node.start))
            var child = index + 1
            while child < Int(node.end) {
                elements.append(value(child))
                child = next(child)
            }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(Int(node.start) / 2)
            var child = index + 1
            while child < Int(node.end) {
                members.append(JSONObject.Member(key: text(child), value: value(child + 1)))
                child = next(child + 1)
            }
            return .object(JSONObject(members))
        }
    }

    /// A short name for node `index`'s kind, as `JSONValue.kindDescription` says it.
    func kindDescription(_ index: Int) -> String {
        switch nodes[index].kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// `JSONParser`'s reader, recording nodes instead of building values: the same checks in the
/// same order, so that the same bytes fail with the same error.
///
/// Why its unsafe buffer is sound: `bytes` is lent by `JSONTape.parse`'s
/// `withUnsafeBufferPointer`, and the reader lives only inside that closure; every index is
/// checked against `bytes.count` before it is read.
private struct TapeReader: JSONByteScanning {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    var nodes: [JSONTape.Node] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A ticker message has one node for every eight to twenty bytes.
        nodes.reserveCapacity(bytes.count / 8 + 4)
    }

    mutating func append(_ kind: JSONTape.Kind, start: Int = 0, end: Int = 0, flag: Bool = false) {
        nodes.append(
            JSONTape.Node(
                kind: kind, escaped: false, nonASCII: false, flag: flag, start: Int32(truncatingIfNeeded: start),
                end: Int32(truncatingIfNeeded: end)))
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"):
            try expect("true")
            append(.bool, flag: true)
        case UInt8(ascii: "f"):
            try expect("false")
            append(.bool, flag: false)
        case UInt8(ascii: "n"):
            try expect("null")
            append(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw error("unexpected character '\(printable(byte))'")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth)")
        }
        let index = nodes.count
        append(.object)
        offset += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            close(index, children: 0)
            return
        }
        var children = 0
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            offset += 1
            skipWhitespace()
            try parseValue(depth: depth)
            children += 2
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                close(index, children: children)
                return
            case nil: throw error("unexpected end of input inside an object")
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    mutating func close(_ index: Int, children: Int) {
        nodes[index].start = Int32(truncatingIfNeeded: children)
        nodes[index].end = Int32(truncatingIfNeeded: nodes.count)
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth)")
        }
        let index = nodes.count
        append(.array)
        offset += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            close(index, children: 0)
            return
        }
        var children = 0
        while true {
            skipWhitespace()
            try parseValue(depth: depth)
            children += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                close(index, children: children)
                return
            case nil: throw error("unexpected end of input inside an array")
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) {
        let range = try scanNumber()
        append(.number, start: range.lowerBound, end: range.upperBound)
    }

    mutating func parseString() throws(JSONSyntaxError) {
        offset += 1
        let start = offset
        var highBits: UInt8 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            highBits |= byte
            if byte == UInt8(ascii: "\"") {
                if highBits >= 0x80 {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                    guard String(validating: slice, as: UTF8.self) != nil else {
                        throw JSONSyntaxError(offset: start, reason: "invalid UTF-8 in a string")
                    }
                }
                append(.string, start: start, end: offset)
                nodes[nodes.count - 1].nonASCII = highBits >= 0x80
                offset += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                try scanEscapedString(from: start)
                append(.string, start: start, end: offset - 1)
                nodes[nodes.count - 1].escaped = true
                return
            }
            if byte < 0x20 { throw error("control character in a string") }
            offset += 1
        }
        throw error("unterminated string")
    }

    /// The text of an escaped string already checked by `scanEscapedString`, `start..<end`
    /// being the bytes between its quotes: decoded by the same code.
    static func unescaped(_ document: [UInt8], from start: Int, to end: Int) -> String {
        document.withUnsafeBufferPointer { buffer in
            var reader = TapeReader(bytes: UnsafeBufferPointer(rebasing: buffer[...end]))
            reader.offset = start
            return (try? reader.scanEscapedString(from: start)) ?? ""
        }
    }
}
