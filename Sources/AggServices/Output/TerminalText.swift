import AggJSON

/// Text from outside agg (venue messages, market names, transport details, user input echoed
/// back) made safe to show on a terminal.
///
/// A venue's error message or market name is data, never terminal commands: an ESC sequence in
/// it could retitle the window, clear the screen or move the cursor, a carriage return could
/// overwrite what was printed, a line feed could forge a second `agg:` line on stderr, and a
/// bidirectional override could make text read backwards. `escape` shows every such character
/// as a visible escape instead, so the text stays readable and harmless. Tables (`TextTable`),
/// stderr lines (`Console.printError`) and progress lines (`ProgressLine`) apply it at the
/// rendering boundary, so no command has to remember to. CSV writes a field holding one quoted,
/// in this escaped form (`CSVWriter`); JSON writes each as `\uXXXX` (`JSONWriter`), so the
/// text reads back exactly.
package enum TerminalText {
    /// `text` with every control character written as `\xHH` (C0 controls, DEL and C1
    /// controls) or `\u{HHHH}` (bidirectional formatting and line or paragraph separators);
    /// everything else, Hangul and other non-ASCII text included, unchanged.
    package static func escape(_ text: String) -> String {
        // Printable ASCII, what nearly every cell holds, needs no look at its scalars.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            if scalar.value <= 0xFF {
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            } else {
                result += "\\u{" + hex + "}"
            }
        }
        return result
    }

    /// Whether `scalar` could act on a terminal rather than be shown by it: agg's one set
    /// (`TerminalControls`), which JSON escapes as `\uXXXX`.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        TerminalControls.contains(scalar)
    }
}
