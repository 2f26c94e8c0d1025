import AggCore
import AggTestKit
import Testing

@testable import AggTransport

@Suite("WebSocket client: the opening handshake", .timeLimit(.minutes(5)))
struct WebSocketHandshakeTests {
    @Test("Sec-WebSocket-Accept is RFC 6455's example value for its example key")
    func acceptKnownAnswer() {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("ws:// and wss:// URLs become libcurl's http:// and https://, with the path in the request line")
    func urls() throws {
        let plain = try WebSocketURL("ws://127.0.0.1:9000/websocket/v1?x=1#frag")
        #expect(plain.connectURL == "http://127.0.0.1:9000/")
        #expect(plain.host == "127.0.0.1:9000")
        #expect(plain.target == "/websocket/v1?x=1")
        let secure = try WebSocketURL("WSS://user@stream.coinone.co.kr")
        #expect(secure.connectURL == "https://user@stream.coinone.co.kr/")
        #expect(secure.host == "stream.coinone.co.kr")
        #expect(secure.target == "/")
        #expect(throws: WebSocketError.invalidURL("ftp://host/")) { try WebSocketURL("ftp://host/") }
        #expect(throws: WebSocketError.invalidURL("ws:///path")) { try WebSocketURL("ws:///path") }
        #expect(throws: WebSocketError.invalidURL("ws://a b/")) { try WebSocketURL("ws://a b/") }
    }

    @Test("a 101 with the right accept opens; the request carries a fresh 16-byte key, version 13 and no Origin")
    func handshakeOpens() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script())
        let client = WebSocketClient()
        let url = server.url(path: "/websocket/v1?format=DEFAULT")
        let connection = try await client.connect(to: url, headers: [HTTPHeader(name: "X-Test", value: "1")])
        connection.close()
        let outcome = await WS.drain(connection)
        #expect(outcome.error == nil)
        #expect(outcome.messages.isEmpty)
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        let record = try #require(server.connections.first)
        let request = try #require(record.request)
        #expect(request.method == "GET")
        #expect(request.target == "/websocket/v1?format=DEFAULT")
        #expect(request.header("Host") == "127.0.0.1:\(server.port)")
        #expect(request.header("Upgrade") == "websocket")
        #expect(request.header("Connection") == "Upgrade")
        #expect(request.header("Sec-WebSocket-Version") == "13")
        #expect(request.header("X-Test") == "1")
        #expect(request.header("Origin") == nil)
        #expect(record.violations == [])
        // The client's close: masked, code 1000.
        #expect(record.frames.map(\.opcode) == [0x8])
        #expect(record.frames.first?.masked == true)
        #expect(record.frames.first.flatMap(WS.closeCode) == 1000)

        // A second connection gets another key.
        let second = try await client.connect(to: url)
        second.close()
        _ = await WS.drain(second)
        #expect(await server.wait(within: 10) { $0.count == 2 && $0[1].ended })
        let keys = server.connections.compactMap { $0.request?.header("Sec-WebSocket-Key") }
        #expect(keys.count == 2 && keys[0] != keys[1])
    }

    @Test(
        "anything but 101 is refused with its status",
        arguments: [429, 403, 200, 404])
    func refused(status: Int) async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"fault":"handshake","status":\#(status),"body":"{\"error\":\"no\"}"}"#))
        let url = server.url(path: "/ws")
        let error = await WS.error { _ = try await WebSocketClient().connect(to: url) }
        #expect(error as? WebSocketError == .handshakeRefused(url: url, status: status))
        #expect("\(error.map { "\($0)" } ?? "")" == "\(url) refused the WebSocket upgrade with HTTP \(status)")
    }

    @Test("a 101 with a wrong Sec-WebSocket-Accept is refused, naming both values")
    func badAccept() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script(#"{"fault":"badAccept"}"#))
        let url = server.url()
        let error = await WS.error { _ = try await WebSocketClient().connect(to: url) }
        let key = try #require(server.connections.first?.request?.header("Sec-WebSocket-Key"))
        let sent = WebSocketHandshake.accept(for: key + "x")
        let expected = WebSocketHandshake.accept(for: key)
        #expect(
            error as? WebSocketError
                == .handshakeInvalid(url: url, detail: "Sec-WebSocket-Accept is \(sent), expected \(expected)"))
    }

    @Test("a server that accepts the connection and never answers times out at the handshake deadline")
    func handshakeTimeout() async throws {
        let server = try LoopbackServer { _ in LoopbackReply(status: 200, headers: [], body: [], fault: .hang) }
        let url = "ws://127.0.0.1:\(server.port)/"
        let client = WebSocketClient(configuration: WebSocketConfiguration(handshakeTimeout: 0.3))
        let start = WS.now()
        let error = await WS.error { _ = try await client.connect(to: url) }
        let elapsed = WS.now() - start
        #expect(error as? WebSocketError == .timeout(url: url, stage: "handshake", seconds: 0.3))
        #expect(elapsed >= 0.29)
        #expect(elapsed < 0.3 + 5)
    }

    @Test("cancelling the task that connects ends the opening with CancellationError")
    func cancelledOpening() async throws {
        let server = try LoopbackServer { _ in LoopbackReply(status: 200, headers: [], body: [], fault: .hang) }
        let client = WebSocketClient()
        let task = Task { try await client.connect(to: "ws://127.0.0.1:\(server.port)/") }
        // Cancel once the request has reached the server, so the opening is under way.
        #expect(await eventually { !server.requests.isEmpty })
        task.cancel()
        let error = await WS.error { _ = try await task.value }
        #expect(error is CancellationError)
        #expect(await eventually { client.engineProbe.connectionCount == 0 })
    }

    @Test("a port that refuses connections fails with a connection error")
    func refusedConnection() async throws {
        let server = try LoopbackServer { _ in .status(200) }
        let port = server.port
        server.stop()
        let url = "ws://127.0.0.1:\(port)/"
        let error = await WS.error { _ = try await WebSocketClient().connect(to: url) }
        guard case .connection(let failedURL, _)? = error as? WebSocketError else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url)
    }
}

/// Waits (at most 10 s, checking every 5 ms) for `condition`.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = WS.now() + 10
    while !condition() {
        guard WS.now() < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
