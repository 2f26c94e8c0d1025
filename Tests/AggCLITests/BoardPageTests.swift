import AggServer
import AggTestKit
import Foundation
import Testing

@testable import AggServe

/// The board page's files: embedded from Sources/AggServe/Board/ (never stale), and served
/// at `/`, `/board`, `/board.css` and `/board.js` with their types, the content security
/// policy, `nosniff`, an ETag and gzip, without the token that the data endpoints need.
@Suite("agg serve: the board page")
struct BoardPageTests {
    static let board = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AggServe/Board")

    /// The embedded text of one of the page's files.
    static func embedded(_ file: String) -> String {
        switch file {
        case "board.css": BoardAssets.css
        case "board.js": BoardAssets.javascript
        case "board.svg": BoardAssets.icon
        default: BoardAssets.html
        }
    }

    @Test(
        "BoardAssets.swift holds the page's files exactly (run Tools/embed-board.sh after editing them)",
        arguments: ["board.html", "board.css", "board.js", "board.svg"])
    func embeddedIsCurrent(file: String) throws {
        let text = try String(contentsOf: Self.board.appendingPathComponent(file), encoding: .utf8)
        #expect(
            Self.embedded(file) == text, "Sources/AggServe/BoardAssets.swift is stale: run Tools/embed-board.sh")
    }

    @Test(
        "each path: 200, its content type, CSP default-src 'self', nosniff, an ETag; the same bytes for / and /board",
        arguments: [
            ("/", "text/html; charset=utf-8"), ("/board", "text/html; charset=utf-8"),
            ("/board.css", "text/css; charset=utf-8"), ("/board.js", "text/javascript; charset=utf-8"),
            ("/board.svg", "image/svg+xml"),
        ])
    func headers(path: String, type: String) async throws {
        let harness = try ServeHarness()
        let answer = try await harness.get(path)
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == type)
        #expect(answer.header("content-security-policy") == "default-src 'self'")
        #expect(answer.header("x-content-type-options") == "nosniff")
        let expected = Self.embedded(path == "/" || path == "/board" ? "board.html" : String(path.dropFirst()))
        #expect(answer.body == Array(expected.utf8))
        let tag = try #require(answer.header("etag"))
        #expect(tag.hasPrefix("W/\"board-"))
        let again = try await harness.get(path, headers: ["If-None-Match: \(tag)"])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let head = try await harness.get(path, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.header("content-length") == String(expected.utf8.count))
        #expect(head.body.isEmpty)
    }

    @Test("the page is gzipped for a client that accepts it; a query is 400 as on every path")
    func gzipAndQuery() async throws {
        let harness = try ServeHarness()
        let zipped = try await harness.get("/board.js", headers: ["Accept-Encoding: gzip"])
        #expect(zipped.header("content-encoding") == "gzip")
        #expect(Array(zipped.body.prefix(2)) == [0x1F, 0x8B])
        #expect(zipped.body.count * 2 < BoardAssets.javascript.utf8.count)
        let query = try await harness.get("/board?x=1")
        #expect(query.status == 400)
        #expect(query.text == #"{"error":{"status":400,"message":"/board takes no query parameters"}}"# + "\n")
    }

    @Test("with a token: the page loads without it, the data it reads still needs it")
    func token() async throws {
        let harness = try ServeHarness(token: "board-token-0123456789")
        await harness.poll()
        for path in ["/", "/board", "/board.css", "/board.js", "/board.svg"] {
            #expect(try await harness.get(path).status == 200)
        }
        #expect(try await harness.get("/v1/premium").status == 401)
        #expect(try await harness.get("/v1/stream", method: "HEAD").status == 401)
        let authorized = try await harness.get(
            "/v1/premium", headers: ["Authorization: Bearer board-token-0123456789"])
        #expect(authorized.status == 200)
    }

    @Test("the page has no inline script or style, and loads nothing from another origin")
    func noInlineCode() {
        let html = BoardAssets.html
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<style"))
        #expect(!html.contains(" style="))
        #expect(!html.contains("on" + "click="))
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!BoardAssets.javascript.contains("innerHTML"))
        #expect(!BoardAssets.javascript.contains("parseFloat"))
    }
}
