import FoundationEssentials

/// The plain version of `JSONWriter`, kept as the oracle of its fast path
/// (`JSONWriter+FastPath.swift`): the same calls, the same layout and the same escaping rules,
/// written on a `String` one piece at a time, escaping by Unicode scalar (`TerminalControls`),
/// with decimals as Foundation's `description`. agg does not write its output with it; the
/// oracle test (`JSONWriterFastPathOracleTests`) requires both to write the same bytes.
struct PlainJSONWriter: JSONValueSink {
    private(set) var text = ""
    private let pretty: Bool
    private var depth = 0
    private var hasValue = false
    private var afterKey = false

    init(pretty: Bool = false) {
        self.pretty = pretty
    }

    mutating func beginObject() { open("{") }
    mutating func endObject() { close("}") }
    mutating func beginArray() { open("[") }
    mutating func endArray() { close("]") }

    mutating func key(_ key: String) {
        separate()
        text += Self.quoted(key) + ":" + (pretty ? " " : "")
        afterKey = true
    }

    mutating func null() {
        separate()
        text += "null"
    }

    mutating func bool(_ flag: Bool) {
        separate()
        text += flag ? "true" : "false"
    }

    mutating func number(_ number: String) {
        separate()
        text += number
    }

    mutating func integer(_ value: Int64) {
        separate()
        text += String(value)
    }

    mutating func string(_ string: String) {
        separate()
        text += Self.quoted(string)
    }

    mutating func decimalString(_ value: Decimal) {
        separate()
        text += "\"" + DecimalText.plainFormat(value) + "\""
    }

    mutating func unescapedString(_ body: (inout [UInt8]) -> Void) {
        separate()
        var bytes: [UInt8] = []
        body(&bytes)
        text += "\"" + String(decoding: bytes, as: UTF8.self) + "\""
    }

    mutating func value(_ value: JSONValue) {
        write(value)
    }

    mutating func newline() {
        text += "\n"
    }

    private mutating func open(_ bracket: String) {
        separate()
        text += bracket
        depth += 1
        hasValue = false
    }

    private mutating func close(_ bracket: String) {
        depth -= 1
        if pretty && hasValue { breakLine() }
        text += bracket
        hasValue = true
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if hasValue { text += "," }
        hasValue = true
        if pretty { breakLine() }
    }

    private mutating func breakLine() {
        text += "\n" + String(repeating: " ", count: 2 * depth)
    }

    /// `string` between quotes, each scalar escaped as JSON and agg's terminal policy require.
    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if TerminalControls.contains(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
