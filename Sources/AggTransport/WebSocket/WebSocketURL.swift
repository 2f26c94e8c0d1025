/// A WebSocket URL taken apart for the connection and the upgrade request.
///
/// libcurl 7.88 knows no ws:// scheme, so it connects to the http:// (ws://) or https:// (wss://)
/// form; the path and query go only into the request line.
struct WebSocketURL: Sendable, Equatable {
    /// The URL as given.
    let original: String
    /// What libcurl connects to: `http(s)://<authority>/`.
    let connectURL: String
    /// The `Host` header: the authority without any user information.
    let host: String
    /// The request target: the path and query, `/` when the URL has none.
    let target: String

    init(_ url: String) throws(WebSocketError) {
        guard let separator = url.range(of: "://") else { throw .invalidURL(url) }
        let scheme: String
        switch url[..<separator.lowerBound].lowercased() {
        case "ws", "http": scheme = "http"
        case "wss", "https": scheme = "https"
        default: throw .invalidURL(url)
        }
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = rest[authorityEnd...]
        if let fragment = target.firstIndex(of: "#") { target = target[..<fragment] }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let allowed = { (scalar: Unicode.Scalar) in scalar.value > 0x20 && scalar.value < 0x7F }
        guard !host.isEmpty, url.unicodeScalars.allSatisfy(allowed) else { throw .invalidURL(url) }
        self.original = url
        self.connectURL = scheme + "://" + authority + "/"
        self.host = String(host)
        self.target = target.isEmpty ? "/" : (target.first == "?" ? "/" + target : String(target))
    }
}
