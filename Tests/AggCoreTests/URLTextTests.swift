import AggCore
import Testing

@Suite("URLText")
struct URLTextTests {
    @Test(
        "decodes percent sequences and form spaces, keeping what is malformed",
        arguments: [
            ("", ""),
            ("KRW-BTC", "KRW-BTC"),
            ("KRW-BTC%2CKRW-ETH", "KRW-BTC,KRW-ETH"),
            ("a+b", "a b"),
            ("a%20b", "a b"),
            ("50%25", "50%"),
            ("%EB%B9%84%ED%8A%B8", "비트"),
            ("%zz", "%zz"),
            ("100%", "100%"),
            ("%C3", "%C3"),
        ])
    func decodes(text: String, decoded: String) {
        #expect(URLText.decode(text) == decoded)
    }
}
