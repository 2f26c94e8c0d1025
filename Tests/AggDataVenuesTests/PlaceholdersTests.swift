import AggCore
import AggTestKit
import Testing

@testable import AggDataVenues

/// What fills a placeholder, and the adapter's filled paths. (That the byte-level fast path finds
/// and replaces as the standard library does is `PlaceholdersFastPathOracleTests`.)
@Suite("Placeholders in venue paths and symbol templates")
struct PlaceholdersTests {
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
