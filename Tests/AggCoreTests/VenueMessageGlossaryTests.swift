import AggCore
import Testing

@Suite("English glosses of Korean venue messages")
struct VenueMessageGlossaryTests {
    @Test(
        "known messages get their gloss, whatever the spacing the venue used",
        arguments: [
            ("잘못된 코인명입니다.", "invalid coin name"),
            ("잘못된 코인명입니다", "invalid coin name"),
            ("입력값을 확인해주세요.", "please check the input"),
            ("입력값을 확인해 주세요.", "please check the input"),
            ("요청 횟수가 너무 많습니다. 잠시 후 다시 시도해주세요.", "too many requests; try again in a moment"),
        ])
    func known(message: String, english: String) {
        #expect(VenueMessageGlossary.english(for: message) == english)
    }

    @Test(
        "other messages, English ones included, get none",
        arguments: ["Invalid Parameter", "Code not found", "", "점검 중"])
    func unknown(message: String) {
        #expect(VenueMessageGlossary.english(for: message) == nil)
    }

    @Test("every entry is a message in Korean with a one-line English gloss")
    func entries() {
        for entry in VenueMessageGlossary.entries {
            #expect(entry.message.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) })
            #expect(!entry.english.isEmpty && !entry.english.contains(where: \.isNewline))
            let isASCII = entry.english.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII)
        }
    }
}
