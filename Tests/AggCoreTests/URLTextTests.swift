import AggCore
import Testing

@Suite("URLText")
struct URLTextTests {
    static let encoded: [(text: String, encoded: String)] = [
        ("", ""),
        ("BTC", "BTC"),
        ("KRW-BTC", "KRW-BTC"),
        ("az_AZ-09.~", "az_AZ-09.~"),
        ("KRW-BTC,KRW-ETH", "KRW-BTC%2CKRW-ETH"),
        ("a b", "a%20b"),
        ("a+b", "a%2Bb"),
        ("50%", "50%25"),
        ("../x", "..%2Fx"),
        ("?&=#", "%3F%26%3D%23"),
        ("\n\u{0}\u{7F}", "%0A%00%7F"),
        ("é", "%C3%A9"),
        ("비트", "%EB%B9%84%ED%8A%B8"),
        ("😀", "%F0%9F%98%80"),
    ]

    @Test("percent-encodes everything but unreserved characters", arguments: encoded)
    func encodes(text: String, encoded: String) {
        #expect(URLText.encode(text) == encoded)
    }
}
