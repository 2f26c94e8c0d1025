import FoundationEssentials

/// Writes JSON text into one growing byte buffer, value by value, without building a tree.
///
/// Member keys written with `member` are literals; `key(_:)` takes any text.
///
/// Commas, `:` and (when `pretty`) line breaks and two-space indentation are placed by the
/// writer; callers say what comes next. Strings are escaped as `JSONValue.serialized` always
/// did: `\"`, `\\`, `\n`, `\r`, `\t`, other control characters as `\u00XX`, and everything else
/// (non-ASCII included) as UTF-8. A string that needs no escape is copied in one block.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.member("last", decimal: price)
/// json.endObject()
/// let text = json.text
/// ```
public struct JSONWriter: Sendable {
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8]
    private let pretty: Bool
    /// How many containers are open.
    private var depth = 0
    /// Whether the innermost open container already holds a value (the next one needs a comma).
    private var hasValue = false
    /// Whether a key was just written, so that the next value follows it directly.
    private var afterKey = false

    /// A writer of compact JSON, or of JSON indented by two spaces a level when `pretty`;
    /// `capacity` bytes are reserved up front.
    public init(pretty: Bool = false, capacity: Int = 0) {
        self.pretty = pretty
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Containers

    public mutating func beginObject() {
        open(UInt8(ascii: "{"))
    }

    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Starts the next member of an object: its key, then `:`; the value comes next.
    public mutating func key(_ key: String) {
        separate()
        appendString(key)
        endKey()
    }

    /// Starts the next member of an object whose key is a literal (read in place, without
    /// making a `String`).
    public mutating func key(_ key: StaticString) {
        separate()
        let written = key.withUTF8Buffer { utf8 -> Bool in
            guard !utf8.contains(where: needsEscape) else { return false }
            // `"key":` in one block.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + 4) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(fromContentsOf: utf8)
                buffer[utf8.count + 1] = UInt8(ascii: "\"")
                buffer[utf8.count + 2] = UInt8(ascii: ":")
                buffer[utf8.count + 3] = UInt8(ascii: " ")
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<(utf8.count + (pretty ? 4 : 3))]))
            }
            return true
        }
        if written {
            afterKey = true
        } else {
            key.withUTF8Buffer { appendString($0) }
            endKey()
        }
    }

    private mutating func endKey() {
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    // MARK: Values

    public mutating func null() {
        separate()
        append("null")
    }

    public mutating func bool(_ flag: Bool) {
        separate()
        append(flag ? "true" : "false")
    }

    /// A number written as `text`, which must already be a JSON number.
    public mutating func number(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func integer(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    public mutating func string(_ text: String) {
        separate()
        appendString(text)
    }

    /// An exact decimal as a JSON string holding `DecimalText.format(value)`: `"80630000"`.
    public mutating func decimalString(_ value: Decimal) {
        separate()
        guard let parts = DecimalParts(value) else {
            bytes.append(UInt8(ascii: "\""))
            DecimalText.append(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        // The quotes and the digits in one block: nine of these per quote.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: parts.textLength + 2) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            let count = parts.write(into: UnsafeMutableBufferPointer(rebasing: buffer[1...]))
            buffer[count + 1] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<(count + 2)]))
        }
    }

    /// A string whose UTF-8 bytes `body` appends to the buffer; they must need no escaping (for
    /// text made of digits and punctuation, such as a timestamp).
    public mutating func unescapedString(_ body: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A whole parsed or built document.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    /// Ends the text with a line break, after the document (a line of JSON Lines, or output
    /// that ends as text files do).
    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: Members

    /// `"key":"text"`, or `"key":null` for `nil`.
    public mutating func member(_ key: StaticString, string text: String?) {
        self.key(key)
        if let text { string(text) } else { null() }
    }

    /// `"key":"80630000"` (the exact decimal as a string), or `"key":null` for `nil`.
    public mutating func member(_ key: StaticString, decimal value: Decimal?) {
        self.key(key)
        if let value { decimalString(value) } else { null() }
    }

    public mutating func member(_ key: StaticString, bool flag: Bool) {
        self.key(key)
        bool(flag)
    }

    public mutating func member(_ key: StaticString, integer value: Int64) {
        self.key(key)
        integer(value)
    }

    public mutating func member(_ key: StaticString, _ value: JSONValue) {
        self.key(key)
        self.value(value)
    }

    // MARK: Layout

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        depth += 1
        hasValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty && hasValue { breakLine() }
        bytes.append(bracket)
        // The container just closed is a value of the one around it.
        hasValue = true
    }

    /// What goes before a value or a key: nothing after a key; a comma after an earlier value,
    /// then (pretty) a line break and the indentation.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if hasValue { bytes.append(UInt8(ascii: ",")) }
        hasValue = true
        if pretty { breakLine() }
    }

    private mutating func breakLine() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func append(_ ascii: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: ascii.utf8Start, count: ascii.utf8CodeUnitCount))
    }

    private mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString($0) }
    }

    private mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        if utf8.contains(where: needsEscape) {
            for byte in utf8 { appendEscaped(byte) }
        } else {
            bytes.append(contentsOf: utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        case 0..<0x20:
            let hex: StaticString = "0123456789abcdef"
            append("\\u00")
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        default: bytes.append(byte)
        }
    }
}

/// Whether a UTF-8 byte must be escaped inside a JSON string: `"`, `\` and control characters.
/// Bytes of multi-byte characters are all 0x80 or above and pass unchanged.
private func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
}

extension JSONValue {
    /// The document as compact JSON text, members in their stored order.
    ///
    /// Numbers are written as their stored text, so a value parsed from a venue is written
    /// back exactly; non-ASCII text is written as UTF-8, not escaped.
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        return writer.text
    }
}
