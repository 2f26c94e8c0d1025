import AggCore
import AggTestKit
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

    @Test(
        "a value filling a placeholder is percent-encoded: it cannot add a segment, a query or a fragment",
        arguments: [
            ("BTC", "BTC"), ("KRW-BTC", "KRW-BTC"), ("btc_krw.x~y:z", "btc_krw.x~y:z"), ("A/B", "A%2FB"),
            ("A?x=1", "A%3Fx%3D1"), ("A#f", "A%23f"), ("A&b", "A%26b"), ("..", "%2E%2E"), (".", "%2E"),
            ("a..b", "a..b"), ("../etc", "..%2Fetc"), ("%2F", "%252F"), ("가", "%EA%B0%80"), ("a b", "a%20b"),
        ])
    func encoded(value: String, expected: String) {
        #expect(PathText.encoded(value) == expected)
    }

    @Test("the adapter fills its paths with encoded codes, whatever the market holds")
    func adapterFill() throws {
        let text =
            #"{"format": 1, "id": "qaex", "name": "Q", "country": "KR", "homeCurrency": "KRW", "#
            + #""quoteCurrencies": ["KRW"], "baseURL": "https://q.example/api/v1", "requestsPerSecond": 5, "#
            + #""symbol": {"template": "{base}_{quote}"}, "#
            + #""ticker": {"path": "/ticker/{symbol}?b={base}&q={quote}", "fields": {"last": "$.last"}}}"#
        let definition = try DataVenueDefinition.parse(Array(text.utf8))
        let adapter = DataVenueAdapter(
            definition: definition,
            environment: AdapterEnvironment(baseURL: "https://q.example/api/v1", http: ScriptedHTTPClient(body: "{}")))
        #expect(
            adapter.fill(definition.ticker.path, market: Market(base: "BTC", quote: "KRW"))
                == "/ticker/BTC_KRW?b=BTC&q=KRW")
        #expect(
            adapter.fill(definition.ticker.path, market: Market(base: "../../etc/x", quote: "KRW#"))
                == "/ticker/..%2F..%2Fetc%2Fx_KRW%23?b=..%2F..%2Fetc%2Fx&q=KRW%23")
        #expect(
            adapter.fill(definition.ticker.path, market: Market(base: "..", quote: "?"))
                == "/ticker/.._%3F?b=%2E%2E&q=%3F")
    }
}
