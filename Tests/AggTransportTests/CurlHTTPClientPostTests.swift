import AggCore
import AggTestKit
import AggTransport
import Testing

/// POST with a body, for alert destinations; a GET stays what it was.
@Suite("CurlHTTPClient: POST")
struct CurlHTTPClientPostTests {
    @Test("a POST sends its method, exact body bytes and Content-Type, with no Expect round trip")
    func postsTheBody() async throws {
        let server = try LoopbackServer { _ in .json(#"{"ok":true}"#) }
        // Over 1024 bytes, the size at which some libcurl versions wait for `100 Continue`.
        let body = Array((#"{"text":"é\u0000"}"# + String(repeating: "x", count: 2000)).utf8)
        let response = try await CurlHTTPClient().send(
            HTTPRequest(
                url: server.baseURL + "/hook", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                method: .post, body: body))

        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/hook")
        #expect(request.body == body)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Content-Length") == "\(body.count)")
        #expect(request.header("Expect") == nil)
    }

    @Test("an empty POST sends Content-Length 0")
    func postsNothing() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/empty", method: .post))
        #expect(response.status == 204)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.header("Content-Length") == "0")
        #expect(request.body.isEmpty)
    }

    @Test("a request made as before is a GET without a body, Content-Type or Content-Length")
    func getIsUnchanged() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let request = HTTPRequest(url: server.baseURL + "/ticker")
        #expect(request.method == .get)
        #expect(request.body.isEmpty)
        _ = try await CurlHTTPClient().send(request)
        let received = try #require(server.requests.first)
        #expect(received.method == "GET")
        #expect(received.body.isEmpty)
        #expect(received.header("Content-Length") == nil)
        #expect(received.header("Content-Type") == nil)
        #expect(received.headers.map(\.name) == ["Host", "User-Agent", "Accept-Encoding", "Accept"])
    }
}
