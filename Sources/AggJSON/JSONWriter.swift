import FoundationEssentials

/// Writes JSON text into one growing byte buffer, value by value, without building a tree.
///
/// Member keys written with `member` are literals; `key(_:)` takes any text.
///
/// Commas, `:` and (when `pretty`) line breaks and two-space indentation are placed by the
/// writer; callers say what comes next. Strings are escaped as `JSONValue.serialized` always
/// did: `\"`, `\\`, `\n`, `\r`, `\t`, other control characters as `\u00XX`, and everything else
/// (non-ASCII included) as UTF-8, except what a terminal would act on: DEL, the C1 controls
/// (U+0080–U+009F), bidirectional marks, embeddings, overrides and isolates, and the line and
/// paragraph separators are written as `\uXXXX` too (`TerminalControls`), so that JSON printed
/// on a terminal is as safe as a table. A string that needs no escape is copied in one block.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.member("last", decimal: price)
/// json.endObject()
/// let text = json.text
/// ```
public struct JSONWriter: Sendable, JSONValueSink {
    /// The text, then room already allocated: the first `length` bytes are the text, the rest
    /// room for what comes next. Values are written in place into that room: going through
    /// `Array.append` piece by piece, or through a temporary buffer, cost a market-wide answer
    /// more than the digits themselves.
    var storage: [UInt8]
    /// How many bytes of `storage` are written.
    var length = 0
    /// Reused for `unescapedString`'s body, which appends to an array.
    private var scratch: [UInt8] = []
    let pretty: Bool
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
        storage = [UInt8](repeating: 0, count: max(capacity, 0))
    }

    /// The UTF-8 text written so far.
    public var bytes: [UInt8] { Array(storage[..<length]) }

    /// The text written so far.
    public var text: String {
        storage.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[..<length]), as: UTF8.self)
        }
    }

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
        // A one-character literal may be held as its scalar; a key that needs escaping is written
        // as any other string.
        guard appendKeyLiteralInPlace(key) else {
            key.withUTF8Buffer { appendString($0) }
            return endKey()
        }
        afterKey = true
    }

    private mutating func endKey() {
        append(UInt8(ascii: ":"))
        if pretty { append(UInt8(ascii: " ")) }
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
        var text = text
        text.withUTF8 { append($0) }
    }

    public mutating func integer(_ value: Int64) {
        separate()
        appendIntegerInPlace(value)
    }

    public mutating func string(_ text: String) {
        separate()
        appendString(text)
    }

    /// An exact decimal as a JSON string holding `DecimalText.format(value)`: `"80630000"`.
    public mutating func decimalString(_ value: Decimal) {
        separate()
        guard let parts = DecimalTextFastPath(value) else {
            append(UInt8(ascii: "\""))
            var text = DecimalText.plainFormat(value)
            text.withUTF8 { append($0) }
            append(UInt8(ascii: "\""))
            return
        }
        appendDecimalStringInPlace(parts)
    }

    /// A string whose UTF-8 bytes `body` appends to the array it is given; they must need no
    /// escaping (for text made of digits and punctuation, such as a timestamp).
    public mutating func unescapedString(_ body: (inout [UInt8]) -> Void) {
        separate()
        scratch.removeAll(keepingCapacity: true)
        scratch.append(UInt8(ascii: "\""))
        body(&scratch)
        scratch.append(UInt8(ascii: "\""))
        let written = scratch
        written.withUnsafeBufferPointer { append($0) }
    }

    /// A whole parsed or built document (the walk `JSONValueSink.write` shares with the oracle).
    public mutating func value(_ value: JSONValue) {
        write(value)
    }

    /// Ends the text with a line break, after the document (a line of JSON Lines, or output
    /// that ends as text files do).
    public mutating func newline() {
        append(UInt8(ascii: "\n"))
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
        append(bracket)
        depth += 1
        hasValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty && hasValue { breakLine() }
        append(bracket)
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
        if hasValue { append(UInt8(ascii: ",")) }
        hasValue = true
        if pretty { breakLine() }
    }

    private mutating func breakLine() {
        let indent = 2 * depth
        write(reserving: indent + 1) { room in
            room[0] = UInt8(ascii: "\n")
            (room + 1).update(repeating: UInt8(ascii: " "), count: indent)
            return indent + 1
        }
    }

    private mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString($0) }
    }

    mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.contains(where: needsEscape) else { return appendUnescapedInPlace(utf8) }
        append(UInt8(ascii: "\""))
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x7F, let control = TerminalControls.control(in: utf8, at: index) {
                appendUnicodeEscape(control.value)
                index += control.length
            } else {
                appendEscaped(byte)
                index += 1
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// `\uXXXX`, lowercase hex.
    private mutating func appendUnicodeEscape(_ value: UInt32) {
        let hex: StaticString = "0123456789abcdef"
        append("\\u")
        for shift in [12, 8, 4, 0] as [UInt32] { append(hex.utf8Start[Int((value >> shift) & 0x0F)]) }
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
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0x0F)])
        default: append(byte)
        }
    }
}

/// Whether a UTF-8 byte may need an escape inside a JSON string: `"`, `\`, C0 controls, and
/// the bytes that start a terminal control (`TerminalControls.mayStart`). Other bytes of
/// multi-byte characters (Hangul among them) pass unchanged.
func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || TerminalControls.mayStart(byte)
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
