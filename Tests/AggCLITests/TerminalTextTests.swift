import AggCLI
import Testing

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

@Suite("CSV fields with line breaks")
struct CSVLineBreakTests {
    @Test(
        "a field holding a line break of any kind is quoted, so it cannot start a forged row",
        arguments: [
            ("one\ntwo", "\"one\ntwo\""), ("one\rtwo", "\"one\rtwo\""), ("one\r\ntwo", "\"one\r\ntwo\""),
            ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("plain", "plain"),
        ])
    func quoted(field: String, written: String) {
        #expect(CSVWriter.render(header: ["name"], rows: [[field]]) == "name\n" + written)
    }
}
