import AggCore
import AggTestKit
import AggTransport
import Testing

/// What the client puts on the wire.
@Suite("CurlHTTPClient: requests")
struct CurlHTTPClientRequestTests {
    @Test("every request carries User-Agent, Accept and an Accept-Encoding with gzip")
    func sendsTheStandardHeaders() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        _ = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/headers"))

        let request = try #require(server.requests.first)
        #expect(request.header("User-Agent") == "agg/0.1.0")
        #expect(request.header("Accept") == "application/json")
        let encodings = try #require(request.header("Accept-Encoding"))
        #expect(encodings.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains("gzip"))
    }

    @Test("Origin is never sent, however it is spelled", arguments: ["Origin", "origin", "ORIGIN", " Origin"])
    func neverSendsOrigin(name: String) async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let headers = [
            HTTPHeader(name: name, value: "https://www.example.com"),
            HTTPHeader(name: "X-MBX-APIKEY", value: "public-key"),
        ]
        _ = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/origin", headers: headers))

        let request = try #require(server.requests.first)
        #expect(request.header("Origin") == nil)
        #expect(!request.headers.contains { $0.name.lowercased().contains("origin") })
        #expect(request.header("X-MBX-APIKEY") == "public-key")
    }

    @Test("the request's own headers are sent, and its Accept replaces the default one")
    func sendsTheRequestsHeaders() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let headers = [
            HTTPHeader(name: "Accept", value: "text/plain"),
            HTTPHeader(name: "X-Empty", value: ""),
            HTTPHeader(name: "X-Injected", value: "a\r\nOrigin: https://evil.example"),
        ]
        _ = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/own", headers: headers))

        let request = try #require(server.requests.first)
        #expect(request.headers.filter { $0.name.lowercased() == "accept" }.map(\.value) == ["text/plain"])
        #expect(request.header("X-Empty") == "")
        #expect(request.header("X-Injected") == nil)
        #expect(request.header("Origin") == nil)
    }

    @Test("a custom User-Agent is sent")
    func sendsACustomUserAgent() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        _ = try await CurlHTTPClient(userAgent: "agg-test/9").send(HTTPRequest(url: server.baseURL + "/"))
        #expect(server.requests.first?.header("User-Agent") == "agg-test/9")
    }
}
