import AggServer
import AggTestKit
import Synchronization
import Testing

/// The HTTP layer on a real loopback port: routing, the answers the server gives itself to
/// malformed and oversized requests, query decoding and event streams.
@Suite struct HTTPServerTests {
    /// Echoes the request as text and records what finished.
    final class EchoHandler: HTTPHandler {
        let router: Router
        let finishedLabels = Mutex<[String]>([])

        init(streams: EventStreamHub? = nil) {
            var router = Router()
            router.get("/echo") { request in
                .text(
                    request.method + " " + request.path + " "
                        + request.arguments.map { "\($0.name)=\($0.value ?? "<none>")" }.joined(separator: "&"),
                    contentType: "text/plain")
            }
            if let streams {
                router.get("/events") { _ in
                    guard let subscription = streams.subscribe() else { return .error(503, "full") }
                    return HTTPServerResponse(status: 200, body: .events(subscription))
                }
            }
            self.router = router
        }

        func respond(to request: HTTPServerRequest) -> HTTPServerResponse { router.route(request) }
        func label(for request: HTTPServerRequest) -> String { router.knows(request.path) ? request.path : "other" }
        func finished(label: String, status: Int, seconds: Double) {
            finishedLabels.withLock { $0.append("\(label) \(status)") }
        }
    }

    static func start(_ handler: EchoHandler, streams: EventStreamHub? = nil) throws -> HTTPServer {
        try HTTPServer(
            address: ListenAddress.standard.with(port: 0), limits: .standard, handler: handler, streams: streams)
    }

    @Test func routesAndDecodesTheQuery() async throws {
        let handler = EchoHandler()
        let server = try Self.start(handler)
        defer { server.stop() }
        let answer = try await RawHTTPClient.get(port: Int(server.address.port), "/echo?symbol=BTC%2CETH&flag&x=a+b")
        #expect(answer.status == 200)
        #expect(answer.text == "GET /echo symbol=BTC,ETH&flag=<none>&x=a b")
        #expect(answer.header("content-type") == "text/plain")
        #expect(handler.finishedLabels.withLock { $0 } == ["/echo 200"])
    }

    @Test func unknownPathIs404AndWrongMethodIs405() async throws {
        let server = try Self.start(EchoHandler())
        defer { server.stop() }
        let port = Int(server.address.port)
        let missing = try await RawHTTPClient.get(port: port, "/nope")
        #expect(missing.status == 404)
        #expect(
            missing.text
                == #"{"error":{"status":404,"message":"no such path; see /v1/exchanges, /metrics and /healthz"}}"#
                + "\n")
        let posted = try await RawHTTPClient.get(port: port, "/echo", method: "POST")
        #expect(posted.status == 405)
        #expect(posted.header("allow") == "GET, HEAD")
        #expect(posted.text == #"{"error":{"status":405,"message":"POST is not allowed on /echo"}}"# + "\n")
        let head = try await RawHTTPClient.get(port: port, "/echo", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }

    @Test func oversizedHeadersAre431() async throws {
        let server = try Self.start(EchoHandler())
        defer { server.stop() }
        let answer = try await RawHTTPClient.get(
            port: Int(server.address.port), "/echo", headers: ["X-Padding: " + String(repeating: "a", count: 20_000)])
        #expect(answer.status == 431)
    }

    @Test func anOversizedRequestLineIs414() async throws {
        let server = try Self.start(EchoHandler())
        defer { server.stop() }
        let answer = try await RawHTTPClient.get(
            port: Int(server.address.port), "/echo?symbol=" + String(repeating: "B", count: 20_000))
        #expect(answer.status == 414)
    }

    @Test(arguments: [
        "GET /echo HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n", "GET /echo HTTP/1.1\r\n\r\n",
        "GET /echo HTTP/1.1\r\nHost: a\r\n Folded: x\r\n\r\n",
    ])
    func malformedRequestsAre400(request: String) async throws {
        let server = try Self.start(EchoHandler())
        defer { server.stop() }
        let answer = try await RawHTTPClient.send(port: Int(server.address.port), Array(request.utf8))
        #expect(answer.status == 400)
    }

    /// A request line that is not HTTP at all gets a 400 (or, if the client is gone first, no
    /// answer), and the server goes on answering others.
    @Test(arguments: ["GARBAGE\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n", "GET\r\n\r\n"])
    func garbageIsClosedWithoutAnAnswer(request: String) async throws {
        let server = try Self.start(EchoHandler())
        defer { server.stop() }
        let port = Int(server.address.port)
        let answer = try? await RawHTTPClient.send(port: port, Array(request.utf8))
        #expect(answer == nil || answer?.status == 400)
        #expect(try await RawHTTPClient.get(port: port, "/echo").status == 200)
    }

    @Test func anEventStreamDeliversTheLatestAndLaterEvents() async throws {
        let hub = EventStreamHub(maximumSubscribers: 2, queueLimit: 4)
        let server = try Self.start(EchoHandler(streams: hub), streams: hub)
        defer { server.stop() }
        hub.publish(ServerSentEvent(event: "board", id: "1", data: "first"))
        let port = Int(server.address.port)
        let reader = Task { try await RawHTTPClient.events(port: port, "/events", count: 2) }
        while hub.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        hub.publish(ServerSentEvent(event: "board", id: "2", data: "second"))
        #expect(try await reader.value == ["first", "second"])
    }

    @Test func stopEndsOpenStreamsAndRefusesNewConnections() async throws {
        let hub = EventStreamHub(maximumSubscribers: 2, queueLimit: 4)
        let server = try Self.start(EchoHandler(streams: hub), streams: hub)
        let port = Int(server.address.port)
        let reader = Task { try await RawHTTPClient.events(port: port, "/events", count: 1) }
        while hub.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        server.stop()
        await #expect(throws: RawHTTPClient.Failure.self) { try await reader.value }
        await #expect(throws: RawHTTPClient.Failure.self) { try await RawHTTPClient.get(port: port, "/echo") }
    }

    @Test func aPortInUseIsOneLine() throws {
        let first = try Self.start(EchoHandler())
        defer { first.stop() }
        #expect(
            throws: HTTPServerError.cannotListen(address: first.address.description, detail: "Address already in use")
        ) {
            try HTTPServer(address: first.address, handler: EchoHandler())
        }
    }
}

@Suite struct EventStreamHubTests {
    @Test func aSubscriberThatDoesNotReadIsDroppedWithoutDelayingOthers() {
        let hub = EventStreamHub(maximumSubscribers: 2, queueLimit: 2)
        let slow = hub.subscribe()
        let fast = hub.subscribe()
        #expect(hub.subscribe() == nil)
        var received: [EventSubscription.Next] = []
        for id in 1...3 {
            hub.publish(ServerSentEvent(event: "e", id: String(id), data: "d\(id)"))
            received.append(fast?.next(waiting: 0) ?? .idle)
        }
        #expect(received == [1, 2, 3].map { .event(ServerSentEvent(event: "e", id: String($0), data: "d\($0)").wire) })
        #expect(slow?.next(waiting: 0) == .end(dropped: true))
        #expect(hub.droppedCount == 1)
        #expect(hub.subscriberCount == 1)
        #expect(fast?.next(waiting: 0) == .idle)
    }

    @Test func theWireFormatSplitsLines() {
        let event = ServerSentEvent(event: "board", id: "7", data: "a\nb")
        #expect(String(decoding: event.wire, as: UTF8.self) == "event: board\nid: 7\ndata: a\ndata: b\n\n")
    }
}

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1:8080", true), ("127.1.2.3:1", "127.1.2.3:1", true),
        ("[::1]:9000", "[::1]:9000", true), ("0.0.0.0:8080", "0.0.0.0:8080", false),
        ("192.168.1.5:80", "192.168.1.5:80", false), ("[::]:8080", "[::]:8080", false),
    ])
    func parses(text: String, description: String, loopback: Bool) throws {
        let address = try #require(ListenAddress.parse(text))
        #expect(address.description == description)
        #expect(address.isLoopback == loopback)
    }

    @Test(arguments: [
        "localhost:8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:+80", "::1:80", "[::1]8080", ":8080",
    ])
    func refuses(text: String) {
        #expect(ListenAddress.parse(text) == nil)
    }
}

@Suite struct PrometheusTextTests {
    @Test func escapesLabelValuesAndWritesFamilies() {
        var text = PrometheusText()
        text.family("agg_x", type: "gauge", help: "A \\ help\nline.")
        text.sample("agg_x", [("exchange", "a\"b\\c\nd")], "1.5")
        text.sample("agg_x", [], "2")
        #expect(
            text.text == """
                # HELP agg_x A \\\\ help\\nline.
                # TYPE agg_x gauge
                agg_x{exchange="a\\"b\\\\c\\nd"} 1.5
                agg_x 2

                """)
    }

    @Test func histogramsAreCumulative() {
        let histograms = DurationHistograms(bounds: [0.01, 0.1])
        histograms.observe("/v1/quote", seconds: 0.005)
        histograms.observe("/v1/quote", seconds: 0.05)
        histograms.observe("/v1/quote", seconds: 5)
        var text = PrometheusText()
        histograms.write(to: &text, name: "h", labelName: "path", help: "H.")
        #expect(
            text.text == """
                # HELP h H.
                # TYPE h histogram
                h_bucket{path="/v1/quote",le="0.01"} 1
                h_bucket{path="/v1/quote",le="0.1"} 2
                h_bucket{path="/v1/quote",le="+Inf"} 3
                h_sum{path="/v1/quote"} 5.055
                h_count{path="/v1/quote"} 3

                """)
    }
}

@Suite struct ResponseCacheTests {
    @Test func computesOncePerKeyAndGenerationAndKeepsNoServerErrors() {
        let cache = ResponseCache(capacity: 2)
        let computed = Mutex(0)
        func answer(_ key: String, _ generation: Int, status: Int = 200) -> Int {
            cache.response(key: key, generation: generation) {
                computed.withLock { $0 += 1 }
                return .text(key, contentType: "text/plain", status: status)
            }.status
        }
        #expect(answer("a", 1) == 200)
        #expect(answer("a", 1) == 200)
        #expect(computed.withLock { $0 } == 1)
        #expect(answer("a", 2) == 200)
        #expect(computed.withLock { $0 } == 2)
        #expect(answer("b", 2, status: 503) == 503)
        #expect(answer("b", 2, status: 503) == 503)
        #expect(computed.withLock { $0 } == 4)
        // Past the capacity, answers are computed every time rather than kept.
        #expect(answer("c", 2) == 200)
        #expect(answer("d", 2) == 200)
        #expect(answer("d", 2) == 200)
        #expect(computed.withLock { $0 } == 7)
    }

    final class Counter: Sendable {
        let value = Mutex(0)
    }

    @Test func concurrentCallersShareOneComputation() async {
        let cache = ResponseCache(capacity: 8)
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    _ = cache.response(key: "k", generation: 1) {
                        counter.value.withLock { $0 += 1 }
                        return .text("x", contentType: "text/plain")
                    }
                }
            }
        }
        #expect(counter.value.withLock { $0 } == 1)
    }
}

@Suite struct HTTPServerConnectionTests {
    @Test func keepsTheConnectionAliveBetweenRequests() async throws {
        let server = try HTTPServerTests.start(HTTPServerTests.EchoHandler())
        defer { server.stop() }
        let request =
            "GET /echo?n=1 HTTP/1.1\r\nHost: a\r\n\r\nGET /echo?n=2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        let raw = try await RawHTTPClient.sendRaw(port: Int(server.address.port), Array(request.utf8))
        let text = String(decoding: raw, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(text.hasSuffix("GET /echo n=2"))
    }

    /// The server answers 413 once 16 KB of an unexpected body have come, and closes: the
    /// client may see the close (a reset, with the rest of its body unread) before the answer.
    @Test(arguments: ["GET", "POST"])
    func aLargeBodyIsNotReadToTheEnd(method: String) async throws {
        let server = try HTTPServerTests.start(HTTPServerTests.EchoHandler())
        defer { server.stop() }
        let port = Int(server.address.port)
        let body = String(repeating: "x", count: 1_000_000)
        let request = "\(method) /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let answer = try? await RawHTTPClient.send(port: port, Array(request.utf8))
        #expect(answer == nil || answer?.status == (method == "GET" ? 413 : 405))
        #expect(try await RawHTTPClient.get(port: port, "/echo").status == 200)
    }
}
