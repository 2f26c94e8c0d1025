import Testing

@testable import AggDataVenues

/// Placeholders are found and replaced on bytes; the results are those of the standard
/// library's Character-based `ranges(of:)` and `replacing(_:with:)` on every text a venue file
/// may hold (ASCII around the placeholders).
@Suite("Placeholders in venue paths and symbol templates")
struct PlaceholdersTests {
    @Test(
        "counts and replaces as the standard library does",
        arguments: [
            "{base}{quote}", "{quote}-{base}", "{base}_{quote}", "/v1/{symbol}/ticker?x={base}", "",
            "{base}", "no placeholder", "{base}{base}{base}", "{{base}}", "{base", "base}", "{bas{base}e}",
            "/a/{quote}/{quote}", "x{symbol}y{base}z{quote}",
        ])
    func agreesWithStandardLibrary(_ text: String) {
        for placeholder in ["{base}", "{quote}", "{symbol}"] {
            #expect(text.occurrences(of: placeholder) == text.ranges(of: placeholder).count)
            #expect(
                text.replacingPlaceholder(placeholder, with: "KRW-BTC") == text.replacing(placeholder, with: "KRW-BTC"))
            #expect(text.replacingPlaceholder(placeholder, with: "") == text.replacing(placeholder, with: ""))
        }
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
}
