import AggJSON
import FoundationEssentials

/// RFC 4180 CSV: a header row, then one row per record; fields with commas or quotes are
/// quoted. Rows are separated by `\n`, with none after the last. A field holding a character a
/// terminal would act on (a line break, ESC, a C1 control, a bidirectional override: see
/// `TerminalText`) is quoted and written with each such character in its visible escape form
/// (`\x1B`, `\u{202E}`), so that CSV printed on a terminal is as safe as a table and venue
/// text cannot start a forged row.
///
/// Fields are written into one byte buffer as they come, decimals without an intermediate
/// `String`, so that a market-wide listing does not build a string per cell.
package struct CSVWriter {
    private var bytes: [UInt8] = []
    private var fieldsInRow = 0

    /// A writer whose first row is `header`.
    package init(header: [String], capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
        for title in header { field(title) }
        endRow()
    }

    /// The next field of the current row, quoted when it must be.
    mutating func field(_ text: String) {
        separate()
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard utf8.contains(where: Self.needsCare) else {
                bytes.append(contentsOf: utf8)
                return true
            }
            return false
        }
        if plain { return }
        var shown = TerminalText.escape(text)
        let quoted = shown != text || shown.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") }
        shown.withUTF8 { utf8 in
            guard quoted else { return bytes.append(contentsOf: utf8) }
            bytes.append(UInt8(ascii: "\""))
            for byte in utf8 {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// An exact decimal (`DecimalText.format`), or an empty field for `nil`.
    mutating func field(_ value: Decimal?) {
        separate()
        if let value { DecimalText.append(value, to: &bytes) }
    }

    /// Ends the current row.
    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        fieldsInRow = 0
    }

    /// The rows written, without the line break after the last.
    var text: String {
        String(decoding: bytes.dropLast(bytes.last == UInt8(ascii: "\n") ? 1 : 0), as: UTF8.self)
    }

    static func render(header: [String], rows: [[String]]) -> String {
        var writer = CSVWriter(header: header)
        for row in rows {
            for field in row { writer.field(field) }
            writer.endRow()
        }
        return writer.text
    }

    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(UInt8(ascii: ",")) }
        fieldsInRow += 1
    }

    /// Whether a byte may call for quotes or escapes: commas, quotes, C0 controls (line breaks
    /// among them), and the first bytes of the other terminal controls. Bytes, not characters,
    /// are checked: `"\r\n"` is one `Character`, equal to neither `"\r"` nor `"\n"`.
    private static func needsCare(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte < 0x20 || TerminalControls.mayStart(byte)
    }
}
