import AggTestKit
import Testing

@testable import AggTransport

@Suite("WebSocket client: every fault a stream can have ends it once, with its own error", .timeLimit(.minutes(5)))
struct WebSocketFaultTests {
    @Test("a close with a code surfaces the code and reason, and the client answers it")
    func closeWithCode() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"send":"text","data":"one"}"#, #"{"fault":"close","code":4290,"reason":"too many"}"#))
        let url = server.url()
        let outcome = await WS.drain(try await WebSocketClient().connect(to: url))
        #expect(outcome.texts == ["one"])
        #expect(outcome.webSocketError == .closedByPeer(url: url, code: 4290, reason: "too many"))
        #expect(outcome.webSocketError?.closeCode == 4290)
        #expect("\(outcome.error.map { "\($0)" } ?? "")" == "\(url) closed the WebSocket with code 4290 (too many)")
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        let echo = try #require(server.connections.first?.frames.last)
        #expect(echo.opcode == 0x8 && echo.masked && WS.closeCode(echo) == 4290)
    }

    @Test("a close without a code is 1005")
    func closeWithoutCode() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script(#"{"fault":"close"}"#))
        let url = server.url()
        let outcome = await WS.drain(try await WebSocketClient().connect(to: url))
        #expect(outcome.webSocketError == .closedByPeer(url: url, code: nil, reason: ""))
        #expect(outcome.webSocketError?.closeCode == 1005)
    }

    @Test("an error message is delivered, then its close")
    func errorMessage() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"fault":"error","data":"{\"error\":{\"name\":\"WRONG_FORMAT\"}}"}"#))
        let url = server.url()
        let outcome = await WS.drain(try await WebSocketClient().connect(to: url))
        #expect(outcome.texts == [#"{"error":{"name":"WRONG_FORMAT"}}"#])
        #expect(outcome.webSocketError == .closedByPeer(url: url, code: 1000, reason: ""))
    }

    @Test("a dropped TCP connection is 1006, after the messages before it")
    func dropped() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"send":"text","data":"one"}"#, #"{"send":"text","data":"two"}"#, #"{"fault":"drop"}"#))
        let url = server.url()
        let outcome = await WS.drain(try await WebSocketClient().connect(to: url))
        #expect(outcome.texts == ["one", "two"])
        #expect(outcome.webSocketError == .dropped(url: url))
        #expect(outcome.webSocketError?.closeCode == 1006)
    }

    @Test("stopping the server mid-stream is a drop")
    func serverStopped() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script(#"{"send":"text","data":"one"}"#))
        let url = server.url()
        let connection = try await WebSocketClient().connect(to: url)
        var iterator = connection.messages.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == .text("one"))
        server.stop()
        let error = await WS.error { while try await iterator.next() != nil {} }
        #expect(error as? WebSocketError == .dropped(url: url))
    }

    @Test("a malformed frame (reserved opcode) is a protocol violation: the client closes with 1002")
    func malformed() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"send":"text","data":"before"}"#, #"{"fault":"malformed"}"#))
        let url = server.url()
        let outcome = await WS.drain(try await WebSocketClient().connect(to: url))
        #expect(outcome.texts == ["before"])
        #expect(outcome.webSocketError == .protocolViolation(url: url, closeCode: 1002))
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        let close = try #require(server.connections.first?.frames.last)
        #expect(close.opcode == 0x8 && WS.closeCode(close) == 1002)
    }

    @Test("a message of 16 MiB is delivered; one byte more closes with 1009 and a typed error")
    func oversize() async throws {
        let limit = 16 * 1024 * 1024
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"fault":"oversize","bytes":\#(limit)}"#, #"{"fault":"oversize"}"#))
        let url = server.url()
        let outcome = await WS.drain(try await WebSocketClient().connect(to: url))
        #expect(outcome.messages.map(\.bytes.count) == [limit])
        #expect(outcome.messages.first?.bytes.allSatisfy { $0 == UInt8(ascii: "a") } == true)
        #expect(outcome.webSocketError == .messageTooLarge(url: url, limit: limit))
        #expect(outcome.webSocketError?.closeCode == 1009)
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        let close = try #require(server.connections.first?.frames.last)
        #expect(close.opcode == 0x8 && WS.closeCode(close) == 1009)
    }

    @Test("a stalled stream (no data, no pong) is given up at keep-alive interval + timeout, not before")
    func stalled() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"send":"text","data":"last"}"#, #"{"fault":"stall"}"#))
        let url = server.url()
        let configuration = WebSocketConfiguration(keepAliveInterval: 0.2, keepAliveTimeout: 0.3)
        // The silence is counted from the last byte received, which cannot come before the
        // connection is asked for: counted from here, the give-up is 0.5 s or later whatever the
        // load. (Counted from when "last" was read, a loaded run read it 0.26 s after it came.)
        let start = WS.now()
        let connection = try await WebSocketClient(configuration: configuration).connect(to: url)
        var iterator = connection.messages.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == .text("last"))
        let error = await WS.error { while try await iterator.next() != nil {} }
        let elapsed = WS.now() - start
        #expect(error as? WebSocketError == .stalled(url: url, seconds: 0.5))
        #expect(elapsed >= 0.45)
        // Generous for a loaded machine, far below the venues' own 60 s idle timeouts.
        #expect(elapsed < 0.5 + 5)
    }

    @Test("a close the server never answers ends the stream at the close timeout, as the client asked")
    func closeTimeout() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script(#"{"fault":"stall"}"#))
        let configuration = WebSocketConfiguration(closeTimeout: 0.3)
        let connection = try await WebSocketClient(configuration: configuration).connect(to: server.url())
        let start = WS.now()
        connection.close()
        let outcome = await WS.drain(connection)
        let elapsed = WS.now() - start
        #expect(outcome.error == nil)
        #expect(elapsed >= 0.29)
        #expect(elapsed < 0.3 + 5)
    }
}
