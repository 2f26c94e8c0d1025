import AggCore
import AggTestKit
import AggTransport
import Foundation
import Testing

/// Complete answers come back as responses, exactly as the server sent them.
@Suite("CurlHTTPClient: responses")
struct CurlHTTPClientResponseTests {
    @Test("a 200 JSON answer is returned with its status, headers and exact body")
    func returnsTheAnswer() async throws {
        let text = #"{"symbol":"BTCUSDT","price":"67012.50"}"#
        let server = try LoopbackServer { _ in .json(text).withHeader("X-Venue-Weight", "7") }
        let client = CurlHTTPClient()
        let url = server.baseURL + "/api/v3/ticker?symbol=BTCUSDT"

        let response = try await client.send(HTTPRequest(url: url))

        #expect(response.status == 200)
        #expect(response.isSuccess)
        #expect(response.body == Array(text.utf8))
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("X-Venue-Weight") == "7")
        #expect(response.header("Connection") == "close")
        #expect(response.url == url)
        #expect(server.requests.map(\.target) == ["/api/v3/ticker?symbol=BTCUSDT"])
        #expect(server.requests.first?.method == "GET")
    }

    @Test("an answer with any status is a response, not an error", arguments: [201, 400, 404, 418, 429, 451, 500, 503])
    func returnsEveryStatus(status: Int) async throws {
        let body = #"{"code":-1121,"msg":"Invalid symbol."}"#
        let server = try LoopbackServer { _ in .json(body, status: status) }
        let client = CurlHTTPClient()

        let response = try await client.send(HTTPRequest(url: server.baseURL + "/status"))

        #expect(response.status == status)
        #expect(response.body == Array(body.utf8))
    }

    @Test("an empty body is an empty response")
    func returnsAnEmptyBody() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/empty"))
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
    }

    @Test("a binary body survives byte for byte")
    func returnsBinaryBodies() async throws {
        let body = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try LoopbackServer { _ in .bytes(body) }
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/binary"))
        #expect(response.body == body)
    }

    @Test("a gzip-encoded body is decoded")
    func decodesGzip() async throws {
        let server = try LoopbackServer { request in
            guard request.header("Accept-Encoding")?.contains("gzip") == true else { return .status(406) }
            return .bytes(
                GzipFixture.bytes, contentType: "application/json",
                headers: [HTTPHeader(name: "Content-Encoding", value: "gzip")])
        }
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/gzip"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == GzipFixture.text)
    }

    struct RedirectCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var status: Int
        /// The `Location` for the first hop; `BASE` stands for the server's base URL.
        var location: String
    }

    @Test(
        "a redirect is followed and the final URL, headers and body are returned",
        arguments: [
            RedirectCase(testDescription: "302 to a path", status: 302, location: "/final"),
            RedirectCase(testDescription: "301 to an absolute URL", status: 301, location: "BASE/final"),
            RedirectCase(testDescription: "307 to a path", status: 307, location: "/final"),
            RedirectCase(testDescription: "two hops", status: 302, location: "/hop"),
        ])
    func followsRedirects(redirect: RedirectCase) async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/start":
                // The port is known only once the server runs; the Host header carries it.
                .redirect(
                    to: redirect.location.replacingOccurrences(
                        of: "BASE", with: "http://\(request.header("Host") ?? "")"),
                    status: redirect.status
                ).withHeader("X-Hop", "first")
            case "/hop": .redirect(to: "/final")
            case "/final": .json(#"{"final":true}"#).withHeader("X-Final", "yes")
            default: .status(404)
            }
        }
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/start"))

        #expect(response.status == 200)
        #expect(response.url == server.baseURL + "/final")
        #expect(response.body == Array(#"{"final":true}"#.utf8))
        #expect(response.header("X-Final") == "yes")
        #expect(response.header("X-Hop") == nil)
        #expect(response.header("Location") == nil)
        #expect(server.requests.last?.path == "/final")
    }
}
