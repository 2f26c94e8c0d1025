import AggJSON
import Testing

@testable import AggServices

@Suite("Venue text cannot drive the terminal")
struct TerminalTextTests {
    @Test(
        "control characters become visible escapes",
        arguments: [
            ("\u{1B}]0;pwned\u{07}", #"\x1B]0;pwned\x07"#),
            ("\u{1B}[2J\u{1B}[H", #"\x1B[2J\x1B[H"#),
            ("one\r\nagg: forged", #"one\x0D\x0Aagg: forged"#),
            ("tab\there", #"tab\x09here"#),
            ("nul\u{0}del\u{7F}", #"nul\x00del\x7F"#),
            ("c1 csi \u{9B}31m", #"c1 csi \x9B31m"#),
            ("\u{202E}txt.exe", #"\u{202E}txt.exe"#),
            ("isolate \u{2066}x\u{2069}", #"isolate \u{2066}x\u{2069}"#),
            ("line\u{2028}sep", #"line\u{2028}sep"#),
        ])
    func escapes(text: String, shown: String) {
        #expect(TerminalText.escape(text) == shown)
    }

    @Test(
        "ordinary text is unchanged: Korean, symbols, accents, emoji",
        arguments: ["잘못된 코인명입니다.", "BTC/KRW", "Crème brûlée ▲ +0.54%", "₩ 80,630,000 🚀", "", #"back\slash"#])
    func unchanged(text: String) {
        #expect(TerminalText.escape(text) == text)
    }
}

@Suite("CSV fields with line breaks and separators")
struct CSVLineBreakTests {
    @Test(
        "a field holding a line break of any kind is quoted and the break written as its escape, so it cannot start a forged row",
        arguments: [
            ("one\ntwo", #""one\x0Atwo""#), ("one\rtwo", #""one\x0Dtwo""#), ("one\r\ntwo", #""one\x0D\x0Atwo""#),
            ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("plain", "plain"),
        ])
    func quoted(field: String, written: String) {
        #expect(CSVWriter.render(header: ["name"], rows: [[field]]) == "name\n" + written)
    }
}

@Suite("One escaping policy for every output format")
struct EscapingPolicyTests {
    @Test(
        "a scalar a terminal would act on is escaped in tables, CSV and JSON (JSON reads back the same text); any other is written as itself"
    )
    func everyScalar() throws {
        var checked = 0
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(scalar) + "b"
            let json = JSONValue.string(text).serialized()
            let csv = CSVWriter.render(header: ["h"], rows: [[text]])
            #expect(try JSONCursor(JSONParser.parse(json)).string() == text)
            if TerminalText.needsEscape(scalar) {
                #expect(!json.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16))")
                #expect(csv == "h\n\"" + TerminalText.escape(text) + "\"", "U+\(String(value, radix: 16))")
                #expect(TerminalText.escape(text) != text)
                checked += 1
            } else {
                if scalar != "\"" && scalar != "\\" {
                    #expect(json == "\"" + text + "\"", "U+\(String(value, radix: 16))")
                }
                if scalar != "\"" && scalar != "," { #expect(csv == "h\n" + text, "U+\(String(value, radix: 16))") }
                #expect(TerminalText.escape(text) == text)
            }
        }
        // C0 (32), DEL and C1 (33), U+061C, U+200E-F, U+2028-9, U+202A-E, U+2066-9.
        #expect(checked == 32 + 33 + 1 + 2 + 2 + 5 + 4)
    }

    @Test(
        "JSON writes C1, DEL, bidirectional controls and separators as lowercase \\u escapes",
        arguments: [
            ("\u{9B}31m", #""\u009b31m""#), ("\u{202E}txt", #""\u202etxt""#), ("\u{7F}", #""\u007f""#),
            ("\u{85}", #""\u0085""#), ("x\u{2066}y\u{2069}", #""x\u2066y\u2069""#), ("\u{61C}", #""\u061c""#),
            ("\u{200E}\u{200F}", #""\u200e\u200f""#), ("\u{2028}\u{2029}", #""\u2028\u2029""#),
            ("\u{1B}[2J\u{07}", #""\u001b[2J\u0007""#), ("한글 €", #""한글 €""#), ("\u{A0}\u{2030}", "\"\u{A0}\u{2030}\""),
        ])
    func json(text: String, written: String) {
        #expect(JSONValue.string(text).serialized() == written)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(text)
        writer.string(text)
        writer.endObject()
        #expect(writer.text == "{" + written + ":" + written + "}")
    }
}
