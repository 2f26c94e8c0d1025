import AggCore
import AggTestKit
import AggTransport
import Testing

/// Every way of getting no complete answer ends in the matching `TransportError`.
@Suite("CurlHTTPClient: failures")
struct CurlHTTPClientFailureTests {
    /// What kind of error a case must end in.
    enum Expected: Sendable {
        case malformed(detailContaining: String)
        case tooLarge(limit: Int)
        case timeout(seconds: Double)
        case connection(detailContaining: String)
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var reply: LoopbackReply
        var timeouts: HTTPTimeouts? = nil
        var maximumBodySize = CurlHTTPClient.defaultMaximumBodySize
        var expected: Expected
        /// The longest the failure may take to arrive: well below the 10 s a slow server takes,
        /// with room for a machine loaded by the rest of the suite.
        var within: Duration = .seconds(5)
    }

    static let cases: [FailureCase] = [
        FailureCase(
            testDescription: "a body cut short",
            reply: LoopbackReply.json(String(repeating: "x", count: 1000)).withFault(.truncate(afterBytes: 10)),
            expected: .malformed(detailContaining: "the answer was cut short")),
        FailureCase(
            testDescription: "a connection dropped without an answer",
            reply: LoopbackReply.json("{}").withFault(.dropConnection),
            expected: .malformed(detailContaining: "the server closed the connection without answering")),
        FailureCase(
            testDescription: "a body that is not the gzip it claims to be",
            reply: .bytes([1, 2, 3, 4, 5, 6, 7, 8], headers: [HTTPHeader(name: "Content-Encoding", value: "gzip")]),
            expected: .malformed(detailContaining: "")),
        FailureCase(
            testDescription: "a body larger than the limit",
            reply: .bytes([UInt8](repeating: 7, count: 4096)),
            maximumBodySize: 1024,
            expected: .tooLarge(limit: 1024)),
        FailureCase(
            testDescription: "a gzip body larger than the limit once decoded",
            reply: .bytes(
                GzipFixture.bytes, headers: [HTTPHeader(name: "Content-Encoding", value: "gzip")]),
            maximumBodySize: 50,
            expected: .tooLarge(limit: 50)),
        FailureCase(
            testDescription: "a server that never answers",
            reply: LoopbackReply.json("{}").withFault(.hang),
            timeouts: HTTPTimeouts(connect: 5, total: 0.5),
            expected: .timeout(seconds: 0.5)),
        FailureCase(
            testDescription: "a server slower than the timeout",
            reply: LoopbackReply.json("{}").delayed(by: 10),
            timeouts: HTTPTimeouts(connect: 5, total: 0.5),
            expected: .timeout(seconds: 0.5)),
        FailureCase(
            testDescription: "a redirect loop",
            reply: .redirect(to: "/case"),
            expected: .connection(detailContaining: "too many redirects")),
    ]

    @Test("a broken answer throws the matching error", arguments: cases)
    func failsWithTheMatchingError(failure: FailureCase) async throws {
        let server = try LoopbackServer { _ in failure.reply }
        let client = CurlHTTPClient(maximumBodySize: failure.maximumBodySize)
        let url = server.baseURL + "/case"

        let (error, elapsed) = await timed {
            await #expect(throws: TransportError.self) {
                try await client.send(HTTPRequest(url: url, timeouts: failure.timeouts))
            }
        }

        #expect(elapsed < failure.within, "took \(elapsed.seconds) s")
        switch (failure.expected, error) {
        case (.malformed(let expected), .malformedResponse(let errorURL, let detail)?):
            #expect(errorURL == url)
            #expect(expected.isEmpty || detail.contains(expected), "detail: \(detail)")
        case (.tooLarge(let limit), let error?):
            #expect(error == .responseTooLarge(url: url, limit: limit))
        case (.timeout(let seconds), let error?):
            #expect(error == .timeout(url: url, seconds: seconds))
        case (.connection(let expected), .connection(let errorURL, let detail)?):
            #expect(errorURL == url)
            #expect(detail.contains(expected), "detail: \(detail)")
        default:
            Issue.record("expected \(failure.expected), got \(String(describing: error))")
        }
    }

    @Test("a port with nothing listening is a connection error")
    func refusedConnection() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let url = server.baseURL + "/closed"
        server.stop()

        let error = await #expect(throws: TransportError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: url))
        }

        guard case .connection(let errorURL, let detail)? = error else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(errorURL == url)
        #expect(!detail.isEmpty)
    }

    @Test(
        "a URL libcurl cannot use is an invalid URL",
        arguments: ["", "ftp://127.0.0.1/file", "file:///etc/hostname", "http://", "gopher://127.0.0.1/"])
    func invalidURL(url: String) async throws {
        await #expect(throws: TransportError.invalidURL(url)) {
            try await CurlHTTPClient().send(HTTPRequest(url: url))
        }
    }
}
