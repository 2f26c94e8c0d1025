import AggServer

/// The board page of `agg serve`: `/` and `/board` (the same HTML), `/board.css`, `/board.js`
/// and `/board.svg` (its icon), embedded in the binary (`BoardAssets`, written by
/// Tools/embed-board.sh). The page carries no data, so it is served without the bearer token;
/// its script asks the data endpoints with the token.
enum BoardPage {
    /// One file of the page.
    struct Asset: Sendable {
        var contentType: String
        var bytes: [UInt8]
        /// A tag of the content (FNV-1a, 64 bits): the same across runs of the same binary.
        var etag: String

        init(_ text: String, contentType: String) {
            self.contentType = contentType
            bytes = Array(text.utf8)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0100_0000_01b3
            }
            etag = "board-" + String(hash, radix: 36)
        }

        /// The asset with the page's headers: its type, a content security policy that allows
        /// only this origin (no inline script or style), `nosniff`, and revalidation by ETag.
        var response: HTTPServerResponse {
            HTTPServerResponse(
                status: 200,
                headers: [
                    ("Content-Type", contentType), ("Content-Security-Policy", BoardPage.contentSecurityPolicy),
                    ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-cache"),
                ],
                body: .bytes(bytes), etag: etag)
        }
    }

    static let contentSecurityPolicy = "default-src 'self'"

    /// The page's paths and files.
    static let assets: [String: Asset] = {
        let html = Asset(BoardAssets.html, contentType: "text/html; charset=utf-8")
        return [
            "/": html, "/board": html,
            "/board.css": Asset(BoardAssets.css, contentType: "text/css; charset=utf-8"),
            "/board.js": Asset(BoardAssets.javascript, contentType: "text/javascript; charset=utf-8"),
            "/board.svg": Asset(BoardAssets.icon, contentType: "image/svg+xml"),
        ]
    }()

    /// Whether `path` is one of the page's files, served without the token.
    static func isPage(_ path: String) -> Bool { assets[path] != nil }

    /// Adds the page's paths to `router` (GET and HEAD, no query parameters).
    static func register(in router: inout Router) {
        for (path, asset) in assets {
            let response = asset.response
            router.get(path, parameters: []) { _ in response }
        }
    }
}
