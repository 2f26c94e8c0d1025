import AggTestKit
import CZlib
import Synchronization
import Testing

@testable import AggServer

/// Requests that two readers could frame differently (RFC 9112 §6.3), NULs that would truncate,
/// and over-limit requests: each is answered by the server itself with the one-line JSON error
/// and the connection closed, before any handler sees it.
@Suite struct HTTPServerStrictnessTests {
    static func errorLine(_ status: Int, _ message: String) -> String {
        HTTPServerResponse.errorText(status, message)
    }

    @Test(arguments: [
        (
            "GET /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /echo?smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
            "both Content-Length and Transfer-Encoding"
        ),
        (
            "GET /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\n",
            "two different Content-Length values"
        ),
        ("GET /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 0, 7\r\n\r\n", "two different Content-Length values"),
        (
            "GET /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
            "whitespace between a header name and its colon"
        ),
        ("GET /echo HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "more than one Host header"),
        ("GET /echo HTTP/1.1\r\nConnection: close\r\n\r\n", "an HTTP/1.1 request without Host"),
        ("GET /echo HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", "a malformed Content-Length"),
        (
            "GET /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "Transfer-Encoding is not accepted: no path takes a request body"
        ),
        ("GET /echo HTTP/1.1\nHost: a\n\n\r\n\r\n", "a line of the request head ends without CR"),
        (
            "GET /echo HTTP/1.1\r\nHost: a\r\n Folded: x\r\n\r\n",
            "a folded header line (obsolete line folding is not accepted)"
        ),
        ("GET /echo HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n", "a header line without a colon"),
        ("GET /metrics%00.png HTTP/1.1\r\nHost: a\r\n\r\n", "a NUL or control character in the path"),
        ("GET /echo?symbol=ETH%00BTC HTTP/1.1\r\nHost: a\r\n\r\n", "a NUL or control character in a query parameter"),
        ("GET /echo?symbol=%0aX HTTP/1.1\r\nHost: a\r\n\r\n", "a NUL or control character in a query parameter"),
        ("GET /echo?symbol=%zz HTTP/1.1\r\nHost: a\r\n\r\n", "a malformed percent escape in a query parameter"),
        ("GET /echo?symbol=%C3 HTTP/1.1\r\nHost: a\r\n\r\n", "a query parameter is not UTF-8"),
        ("GARBAGE\r\n\r\n", "a malformed request line"),
        ("GET /echo HTTP/2.0\r\nHost: a\r\n\r\n", "only HTTP/1.0 and HTTP/1.1 are served"),
    ])
    func ambiguousOrTruncatingRequestsAre400AndClosed(request: String, message: String) async throws {
        let handler = HTTPServerTests.EchoHandler()
        let server = try HTTPServerTests.start(handler)
        defer { server.stop() }
        let raw = try await RawHTTPClient.sendRaw(port: Int(server.address.port), Array(request.utf8))
        let text = String(decoding: raw, as: UTF8.self)
        let status = message.hasPrefix("only HTTP") ? 505 : 400
        // One answer (the status line once), the JSON line, and the connection closed: the
        // request hidden behind the first is never served.
        #expect(text.components(separatedBy: "\r\nDate: ").count == 2)
        let answer = try RawHTTPClient.parse(raw)
        #expect(answer.status == status)
        #expect(answer.header("connection") == "close")
        #expect(answer.header("content-type") == "application/json")
        #expect(answer.text == Self.errorLine(status, message))
        #expect(handler.finishedLabels.withLock { $0 } == ["other \(status)"])
    }

    @Test func overLimitRequestsGetTheirStatusAsJSON() async throws {
        let server = try HTTPServerTests.start(HTTPServerTests.EchoHandler())
        defer { server.stop() }
        let port = Int(server.address.port)
        let parameters = (1...300).map { "p\($0)=1" }.joined(separator: "&")
        let manyParameters = try await RawHTTPClient.get(port: port, "/echo?" + parameters)
        #expect(manyParameters.status == 414)
        #expect(manyParameters.text == Self.errorLine(414, "the query has 300 parameters; at most 64 are accepted"))
        // 16.1 KB of one header: just over the 16 KB of header fields.
        let header = try await RawHTTPClient.get(
            port: port, "/echo", headers: ["X-Padding: " + String(repeating: "a", count: 16_500)])
        #expect(header.status == 431)
        #expect(header.text == Self.errorLine(431, "the header fields are over 16384 bytes"))
        let line = try await RawHTTPClient.get(port: port, "/echo?symbol=" + String(repeating: "B", count: 9_000))
        #expect(line.status == 414)
        #expect(line.text == Self.errorLine(414, "the request line is over 8192 bytes"))
        // A declared body over the limit is refused from its Content-Length, before it is sent.
        let body = try await TestSocket.onThread { () throws -> RawHTTPClient.Answer in
            let socket = try TestSocket(port: port)
            socket.send("GET /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n")
            return try socket.answer()
        }
        #expect(body.status == 413)
        #expect(body.text == Self.errorLine(413, "a request body is not expected"))
        // A small body is read and thrown away, and the connection goes on.
        let small = try await RawHTTPClient.send(
            port: port,
            Array("GET /echo?n=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc".utf8))
        #expect(small.text == "GET /echo n=1")
    }

    /// A stream route answers HEAD with its headers and no body, without subscribing: even
    /// with every subscriber place taken, HEAD is 200 where GET is 503.
    @Test func headGetsHeadersOnlyAndDoesNotSubscribe() async throws {
        final class StreamHandler: HTTPHandler {
            let router: Router
            init(_ hub: EventStreamHub) {
                var router = Router()
                router.stream("/events", hub: hub)
                router.get("/echo") { .text($0.method + " " + $0.path, contentType: "text/plain") }
                self.router = router
            }
            func respond(to request: HTTPServerRequest) -> HTTPServerResponse { router.route(request) }
            func label(for request: HTTPServerRequest) -> String { request.path }
            func finished(label: String, status: Int, seconds: Double) {}
        }
        let hub = EventStreamHub(maximumSubscribers: 1, queueLimit: 4)
        let server = try HTTPServer(
            address: ListenAddress.standard.with(port: 0), handler: StreamHandler(hub), streams: hub)
        defer { server.stop() }
        let port = Int(server.address.port)
        let held = try #require(hub.subscribe())
        let raw = try await RawHTTPClient.sendRaw(port: port, Array("HEAD /events HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        let answer = try RawHTTPClient.parse(raw)
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "text/event-stream")
        #expect(answer.header("content-length") == nil)
        #expect(answer.body.isEmpty)
        #expect(hub.subscriberCount == 1)
        let full = try await RawHTTPClient.get(port: port, "/events")
        #expect(full.status == 503)
        #expect(full.text == Self.errorLine(503, "too many stream clients (at most 1)"))
        let query = try await RawHTTPClient.get(port: port, "/events?x=1", method: "HEAD")
        #expect(query.status == 400)
        let echo = try await RawHTTPClient.get(port: port, "/echo", method: "HEAD")
        #expect(echo.header("content-length") == "10")
        #expect(echo.body.isEmpty)
        held.cancel()
    }

    @Test func everyRouteRefusesUnknownParametersTheSameWay() {
        var router = Router()
        router.get("/healthz", parameters: []) { _ in .json("{}\n") }
        router.get("/v1/x", parameters: ["symbol"]) { _ in .json("{}\n") }
        func answer(_ path: String, _ arguments: [(String, String?)]) -> String {
            let request = HTTPServerRequest(
                method: "GET", path: path, arguments: arguments.map { .init(name: $0.0, value: $0.1) })
            guard case .bytes(let body) = router.route(request).body else { return "" }
            return String(decoding: body, as: UTF8.self)
        }
        #expect(answer("/healthz", [("x", "1")]) == Self.errorLine(400, "/healthz takes no query parameters"))
        #expect(
            answer("/v1/x", [("symbol", "A"), ("symbol", "B")])
                == Self.errorLine(400, "query parameter 'symbol' is given twice; separate values with commas"))
        #expect(
            answer("/v1/x", [("x", "1")])
                == Self.errorLine(400, "unknown query parameter 'x'; this endpoint takes symbol"))
        #expect(answer("/v1/x", [("symbol", "A")]) == "{}\n")
    }
}

/// Slow clients: a request head has a deadline however steadily its bytes come, one address
/// has a connection cap, and the total cap stays below the open-file limit; meanwhile other
/// clients are served.
@Suite struct HTTPServerSlowClientTests {
    static func start(_ limits: HTTPServerLimits) throws -> HTTPServer {
        try HTTPServer(
            address: ListenAddress.standard.with(port: 0), limits: limits, handler: HTTPServerTests.EchoHandler())
    }

    /// Waits until the server holds `connections` connections; `false` after 30 s (the accept
    /// takes microseconds, so only a server that never sees them waits that long).
    static func waitFor(_ server: HTTPServer, connections: Int) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while server.connectionCount < connections {
            if clock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test func aHeadTricklingInIsCutAtItsDeadlineWhileOthersAreServed() async throws {
        let deadline = 1.0
        let server = try Self.start(HTTPServerLimits(headDeadlineSeconds: deadline))
        defer { server.stop() }
        let port = Int(server.address.port)
        let slow = Task {
            try await TestSocket.onThread { () throws -> (RawHTTPClient.Answer, Double, Int) in
                let socket = try TestSocket(port: port)
                let start = monotonicSeconds()
                var sent = 0
                // One byte every 50 ms: each byte would reset an idle timer. 400 bytes would take 20 s.
                for byte in "GET /echo HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: 400) {
                    guard !socket.readable(), socket.send(String(byte)) else { break }
                    sent += 1
                    usleep(50_000)
                }
                let answer = try socket.answer()
                return (answer, monotonicSeconds() - start, sent)
            }
        }
        // A normal client, while the slow one trickles.
        try await Task.sleep(for: .milliseconds(200))
        let normal = try await RawHTTPClient.get(port: port, "/echo?n=1")
        #expect(normal.status == 200)
        let (answer, seconds, sent) = try await slow.value
        #expect(answer.status == 408)
        #expect(answer.text == HTTPServerResponse.errorText(408, "the request head did not arrive within 1 s"))
        #expect(seconds >= deadline)
        #expect(sent < 400)
    }

    @Test func oneAddressCannotTakeEveryConnection() async throws {
        let server = try Self.start(HTTPServerLimits(connections: 4, connectionsPerAddress: 2))
        defer { server.stop() }
        let port = Int(server.address.port)
        // The held sockets must live to the end: under -O a value's lifetime ends at its last use,
        // and `_ = held` is none, so they closed at once and the wait below never ended.
        let held = try (0..<2).map { _ in try TestSocket(port: port, from: "127.0.0.2") }
        defer { withExtendedLifetime(held) {} }
        try #require(await Self.waitFor(server, connections: 2))
        let third = try await TestSocket.onThread { try TestSocket(port: port, from: "127.0.0.2").answer() }
        #expect(third.status == 503)
        #expect(third.header("retry-after") == "1")
        #expect(
            third.text
                == HTTPServerResponse.errorText(
                    503, "too many connections from one address (at most 2); try again in a second"))
        // Another address is served meanwhile.
        let other = try await TestSocket.onThread { () throws -> RawHTTPClient.Answer in
            let socket = try TestSocket(port: port, from: "127.0.0.3")
            socket.send("GET /echo?n=2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            return try socket.answer()
        }
        #expect(other.text == "GET /echo n=2")
    }

    @Test func theTotalCapAnswers503() async throws {
        let server = try Self.start(HTTPServerLimits(connections: 2, connectionsPerAddress: 10))
        defer { server.stop() }
        let port = Int(server.address.port)
        let held = try (0..<2).map { _ in try TestSocket(port: port) }
        defer { withExtendedLifetime(held) {} }
        try #require(await Self.waitFor(server, connections: 2))
        let third = try await TestSocket.onThread { try TestSocket(port: port).answer() }
        #expect(third.status == 503)
        #expect(
            third.text == HTTPServerResponse.errorText(503, "too many connections (at most 2); try again in a second"))
    }

    @Test(arguments: [(1024, 20_000, 1024), (1024, 1024, 896), (4096, 200, 72), (10, 100, 1)])
    func theCapLeavesRoomBelowTheFileLimit(requested: Int, fileLimit: Int, cap: Int) {
        #expect(HTTPServerLimits.connectionCap(requested, fileLimit: fileLimit) == cap)
    }
}

/// Stopping with a drain: requests in flight are answered, streams end cleanly, new
/// connections are refused.
@Suite struct HTTPServerDrainTests {
    /// Answers `/slow` after `release` is set, and `/echo` at once.
    final class SlowHandler: HTTPHandler {
        let entered = Mutex(false)
        let release = Mutex(false)
        let streams: EventStreamHub

        init(streams: EventStreamHub) { self.streams = streams }

        func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
            switch request.path {
            case "/slow":
                entered.withLock { $0 = true }
                while !release.withLock({ $0 }) { usleep(2_000) }
                return .text("done", contentType: "text/plain")
            case "/events":
                guard let subscription = streams.subscribe() else { return .error(503, "full") }
                return HTTPServerResponse(status: 200, body: .events(subscription))
            default: return .text("echo", contentType: "text/plain")
            }
        }
        func label(for request: HTTPServerRequest) -> String { request.path }
        func finished(label: String, status: Int, seconds: Double) {}
    }

    @Test func requestsInFlightAreAnsweredAndStreamsEndCleanly() async throws {
        let hub = EventStreamHub(maximumSubscribers: 4, queueLimit: 4)
        let handler = SlowHandler(streams: hub)
        // A head deadline far beyond the test's own waits, which a loaded machine stretches.
        let server = try HTTPServer(
            address: ListenAddress.standard.with(port: 0), limits: HTTPServerLimits(headDeadlineSeconds: 120),
            handler: handler, streams: hub)
        let port = Int(server.address.port)
        let inFlight = Task { try await RawHTTPClient.get(port: port, "/slow") }
        // A head half sent when the stop begins: it is completed, and answered.
        let partial = try TestSocket(port: port)
        partial.send("GET /echo HTTP/1.1\r\n")
        let stream = Task {
            try await TestSocket.onThread { () throws -> String in
                let socket = try TestSocket(port: port)
                socket.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
                return String(decoding: socket.readToEnd(), as: UTF8.self)
            }
        }
        let idle = try TestSocket(port: port)
        while !handler.entered.withLock({ $0 }) || hub.subscriberCount == 0 || server.connectionCount < 4
            || server.idleConnectionCount != 1
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        let stopping = Task { await server.stop(drainingFor: 5) }
        // New connections are refused once the stop has begun.
        while (try? TestSocket(port: port)) != nil { try await Task.sleep(for: .milliseconds(5)) }
        partial.send("Host: a\r\n\r\n")
        handler.release.withLock { $0 = true }
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(answer.text == "done")
        let completed = try await TestSocket.onThread { try partial.answer() }
        #expect(completed.text == "echo")
        #expect(completed.header("connection") == "close")
        let streamed = try await stream.value
        #expect(streamed.hasSuffix("\r\n0\r\n\r\n"))
        #expect(try await TestSocket.onThread { idle.readToEnd() }.isEmpty)
        await stopping.value
        #expect(server.connectionCount == 0)
    }
}

/// gzip for clients that accept it, and ETag with 304.
@Suite struct HTTPServerEncodingTests {
    final class TaggedHandler: HTTPHandler {
        let body = String(repeating: "agg_price{exchange=\"bithumb\"} 80630000\n", count: 100)
        func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
            var response = HTTPServerResponse.text(body, contentType: "text/plain")
            response.etag = request.path == "/tagged" ? "42" : nil
            return response
        }
        func label(for request: HTTPServerRequest) -> String { request.path }
        func finished(label: String, status: Int, seconds: Double) {}
    }

    static func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard agg_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: 1 << 20)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[..<Int(stream.total_out)])
    }

    @Test func gzipWhenAccepted() async throws {
        let handler = TaggedHandler()
        let server = try HTTPServer(address: ListenAddress.standard.with(port: 0), handler: handler)
        defer { server.stop() }
        let port = Int(server.address.port)
        let zipped = try await RawHTTPClient.get(port: port, "/plain", headers: ["Accept-Encoding: br, gzip;q=0.8"])
        #expect(zipped.header("content-encoding") == "gzip")
        #expect(zipped.header("vary") == "Accept-Encoding")
        #expect(zipped.body.count < handler.body.utf8.count / 10)
        #expect(Self.gunzip(zipped.body) == Array(handler.body.utf8))
        let refused = try await RawHTTPClient.get(port: port, "/plain", headers: ["Accept-Encoding: gzip;q=0"])
        #expect(refused.header("content-encoding") == nil)
        #expect(refused.text == handler.body)
        let plain = try await RawHTTPClient.get(port: port, "/plain")
        #expect(plain.header("content-encoding") == nil)
        #expect(plain.header("etag") == nil)
        #expect(plain.text == handler.body)
    }

    @Test func anETagAnswers304WhenItMatches() async throws {
        let handler = TaggedHandler()
        let server = try HTTPServer(address: ListenAddress.standard.with(port: 0), handler: handler)
        defer { server.stop() }
        let port = Int(server.address.port)
        let first = try await RawHTTPClient.get(port: port, "/tagged")
        #expect(first.status == 200)
        #expect(first.header("etag") == "W/\"42\"")
        for match in ["W/\"42\"", "\"42\"", "\"7\", W/\"42\"", "*"] {
            let again = try await RawHTTPClient.get(port: port, "/tagged", headers: ["If-None-Match: \(match)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("etag") == "W/\"42\"")
        }
        let changed = try await RawHTTPClient.get(port: port, "/tagged", headers: ["If-None-Match: W/\"41\""])
        #expect(changed.status == 200)
        #expect(changed.text == handler.body)
    }

    @Test(arguments: [
        ("gzip", true), ("GZIP", true), ("x-gzip", true), ("deflate, gzip;q=0.5", true), ("gzip;q=0", false),
        ("*", true), ("*;q=0", false), ("identity", false), ("br", false), ("gzip;q=0.0, *", false),
    ])
    func acceptEncoding(header: String, accepted: Bool) {
        #expect(ResponseEncoding.accepts(gzip: header) == accepted)
    }
}
