import AggCore
import Testing

/// The one base-URL check, shared by the config file, `AGG_<ID>_URL` and venue data files.
@Suite("base URLs")
struct BaseURLTests {
    @Test(
        "accepted: http(s), a host, an optional port and path",
        arguments: [
            "https://api.bithumb.com", "http://127.0.0.1:8080/bithumb", "https://api.upbit.com/", "http://h:1",
            "http://[::1]:8080/x", "https://[2001:db8::1]", "http://localhost:65535/a/b_c-d.e~f",
        ])
    func accepted(url: String) {
        #expect(BaseURL.isValid(url))
    }

    @Test(
        "refused: no host, a query, a fragment, user info, a bad port, white space or control characters",
        arguments: [
            "http://", "https://", "http:///public", "http://:80/x", "https://h/path?q=1", "https://h?",
            "https://h/p#top",
            "https://user:pw@h/path", "https://@h", "https://h:/x", "https://h:99999", "https://h:8o",
            "https://h:123456",
            "http://h/a b", "http://h/a\tb", "http://h/a\u{7F}", "http://h/\u{1B}[2J", "http://h\n/x", "ftp://h",
            "HTTP://h", "h/path", "", "https://[::1", "https://[]:80", "https://[::1]x", "https://ex\u{E4}mple.com",
            "http://[\u{FF11}::1]", "http://[::\u{FF21}]:80",
        ])
    func refused(url: String) {
        #expect(!BaseURL.isValid(url))
    }

    @Test("the requirement, as error messages say it")
    func requirement() {
        #expect(BaseURL.requirement == "an http:// or https:// URL with a host and no user info, query or fragment")
    }
}
