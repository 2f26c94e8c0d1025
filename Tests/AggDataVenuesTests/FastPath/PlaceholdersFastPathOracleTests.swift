import AggTestKit
import Foundation
import Testing

@testable import AggDataVenues

/// The oracle of the placeholders' byte-level fast path: the same counts and replacements as
/// the plain versions (the standard library's Character-based `ranges(of:)` and
/// `replacing(_:with:)`) on every text a venue file may hold (ASCII around the placeholders;
/// a combining mark right after a `}` would join it into one Character, which is why venue
/// files are checked to be ASCII there).
@Suite("Placeholders fast path oracle")
struct PlaceholdersFastPathOracleTests {
    static let placeholders = ["{base}", "{quote}", "{symbol}"]

    static func expectAgreement(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for placeholder in placeholders {
            #expect(
                text.occurrencesFastPath(of: placeholder) == text.plainOccurrences(of: placeholder), "\(text)",
                sourceLocation: sourceLocation)
            #expect(
                text.occurrences(of: placeholder) == text.plainOccurrences(of: placeholder),
                sourceLocation: sourceLocation)
            for replacement in ["KRW-BTC", "", "{base}", "원"] {
                let plain = text.plainReplacingPlaceholder(placeholder, with: replacement)
                #expect(
                    text.replacingPlaceholderFastPath(placeholder, with: replacement) == plain, "\(text)",
                    sourceLocation: sourceLocation)
                #expect(
                    text.replacingPlaceholder(placeholder, with: replacement) == plain, sourceLocation: sourceLocation)
            }
        }
    }

    @Test(
        "counts and replaces as the plain version does",
        arguments: [
            "{base}{quote}", "{quote}-{base}", "{base}_{quote}", "/v1/{symbol}/ticker?x={base}", "",
            "{base}", "no placeholder", "{base}{base}{base}", "{{base}}", "{base", "base}", "{bas{base}e}",
            "/a/{quote}/{quote}", "x{symbol}y{base}z{quote}", "가{base}나", "{base}😀{quote}",
        ])
    func examples(_ text: String) {
        Self.expectAgreement(text)
    }

    @Test("exact results, around non-ASCII text too")
    func exactResults() {
        #expect("{quote}-{base}".replacingPlaceholder("{base}", with: "BTC") == "{quote}-BTC")
        #expect("{base}{base}".replacingPlaceholder("{base}", with: "x") == "xx")
        #expect("{base}{base}".occurrences(of: "{base}") == 2)
        #expect("가{base}나".replacingPlaceholder("{base}", with: "원") == "가원나")
        #expect("가{base}나".occurrences(of: "{base}") == 1)
        #expect("{base".occurrences(of: "{base}") == 0)
        #expect("".replacingPlaceholder("{base}", with: "x") == "")
    }

    /// Every string in the shipped venue files (paths, templates, field paths).
    @Test("agrees with the plain version on every string of the shipped venue files")
    func shippedVenueFiles() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Plugins/DataVenues")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        var texts: [String] = []
        for file in files {
            let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(file).path))
            let object = try JSONSerialization.jsonObject(with: data)
            func collect(_ value: Any) {
                if let text = value as? String { texts.append(text) }
                if let array = value as? [Any] { array.forEach(collect) }
                if let dictionary = value as? [String: Any] { dictionary.values.forEach(collect) }
            }
            collect(object)
        }
        #expect(texts.contains { $0.contains("{base}") })
        for text in texts { Self.expectAgreement(text) }
    }

    /// Texts of pieces that meet the placeholders in every way: halves of them, braces, ASCII,
    /// Hangul and an emoji.
    @Test("agrees with the plain version on 5,000 random texts (fixed seed)")
    func randomTexts() {
        let pieces = [
            "{base}", "{quote}", "{symbol}", "{", "}", "{ba", "se}", "base", "-", "_", "/", "?x=", "가", "😀", "a",
        ]
        var seeded = SeededRandom(seed: 0x91AC_E401)
        for _ in 0..<5_000 {
            let text = (0..<Int(seeded.next() % 8)).map { _ in pieces[Int(seeded.next() % UInt64(pieces.count))] }
                .joined()
            Self.expectAgreement(text)
        }
    }
}
