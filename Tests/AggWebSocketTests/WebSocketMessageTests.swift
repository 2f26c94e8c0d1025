import AggTestKit
import Testing

@testable import AggTransport

@Suite("WebSocket client: messages, fragments, pings and the subscribe check", .timeLimit(.minutes(5)))
struct WebSocketMessageTests {
    @Test("text and binary frames arrive as bytes, in order, with their kind")
    func textAndBinary() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(
                #"{"send":"text","data":"{\"price\":\"58532000.5\"}"}"#,
                #"{"send":"binary","data":"{\"type\":\"ticker\",\"trade_price\":32287000}"}"#,
                #"{"send":"binary","base64":"AAH/"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        let outcome = await WS.take(3, from: connection)
        #expect(outcome.error == nil)
        #expect(
            outcome.messages == [
                .text(#"{"price":"58532000.5"}"#),
                WebSocketMessage(kind: .binary, bytes: Array(#"{"type":"ticker","trade_price":32287000}"#.utf8)),
                .binary([0x00, 0x01, 0xFF]),
            ])
    }

    @Test("a message in fragments is delivered once, joined; sizes across the 125 and 65535 length forms")
    func fragmented() async throws {
        let long = String(repeating: "0123456789", count: 7000)
        let server = try WebSocketLoopbackServer(
            script: WS.script(
                #"{"send":"text","data":"abcdefghij","fragments":3}"#,
                #"{"send":"binary","data":"\#(long)","fragments":4}"#,
                #"{"send":"text","data":"\#(String(repeating: "x", count: 126))"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        let outcome = await WS.take(3, from: connection)
        #expect(outcome.error == nil)
        // Compared through a flag: a failure would otherwise print the 70,000-byte message.
        let joined = outcome.texts == ["abcdefghij", long, String(repeating: "x", count: 126)]
        #expect(joined, "message sizes \(outcome.texts.map(\.utf8.count))")
        #expect(outcome.messages.map(\.kind) == [.text, .binary, .text])
    }

    @Test("the subscribe message is checked by the server, masked, and the stream follows it")
    func subscribeChecked() async throws {
        let subscribe = #"[{"ticket":"agg"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#
        let escaped = subscribe.replacingOccurrences(of: "\"", with: "\\\"")
        let server = try WebSocketLoopbackServer(
            script: WS.script(
                #"{"expect":"text","data":"\#(escaped)"}"#,
                #"{"send":"binary","data":"ack"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        connection.send(text: subscribe)
        let outcome = await WS.take(1, from: connection)
        #expect(outcome.texts == ["ack"])
        #expect(outcome.error == nil)
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        let record = try #require(server.connections.first)
        #expect(record.violations == [])
        #expect(record.messages == [subscribe])
        #expect(record.frames.allSatisfy { $0.masked })
    }

    @Test("a wrong subscribe message is a violation on the server and a 1008 close at the client")
    func wrongSubscribe() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"expect":"text","data":"{\"a\": 1}","match":"json"}"#))
        let url = server.url()
        let connection = try await WebSocketClient().connect(to: url)
        connection.send(text: #"{"a":2}"#)
        let outcome = await WS.drain(connection)
        #expect(outcome.webSocketError == .closedByPeer(url: url, code: 1008, reason: "unexpected message"))
        #expect(outcome.webSocketError?.closeCode == 1008)
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        #expect(server.connections.first?.violations == [#"expected text {"a": 1} (json), got {"a":2}"#])
    }

    @Test("JSON matching ignores spacing only")
    func jsonMatch() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(
                #"{"expect":"text","data":"{\"a\": [1, \"x\"]}","match":"json"}"#, #"{"send":"text","data":"ok"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        connection.send(text: #"{"a":[1,"x"]}"#)
        let outcome = await WS.take(1, from: connection)
        #expect(outcome.texts == ["ok"])
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        #expect(server.connections.first?.violations == [])
    }

    @Test("a server ping is answered with a pong carrying its payload")
    func serverPing() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(
                #"{"send":"ping","data":"hi"}"#,
                #"{"expect":"pong","data":"hi"}"#,
                #"{"send":"text","data":"after pong"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        let outcome = await WS.take(1, from: connection)
        #expect(outcome.texts == ["after pong"])
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        let record = try #require(server.connections.first)
        #expect(record.violations == [])
        let pong = try #require(record.frames.first)
        #expect(pong.opcode == 0xA)
        #expect(pong.payload == Array("hi".utf8))
        #expect(pong.masked)
    }

    @Test("a client ping reaches the server with its payload and is answered")
    func clientPing() async throws {
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"expect":"ping","base64":"AQID"}"#, #"{"send":"text","data":"pinged"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        connection.ping([1, 2, 3])
        let outcome = await WS.take(1, from: connection)
        #expect(outcome.texts == ["pinged"])
        #expect(outcome.error == nil)
        #expect(await server.wait(within: 10) { $0.first?.ended == true })
        #expect(server.connections.first?.violations == [])
    }

    @Test("keep-alive pings answered by pongs keep a quiet stream open past many intervals")
    func keepAliveAnswered() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script())
        let configuration = WebSocketConfiguration(keepAliveInterval: 0.05, keepAliveTimeout: 2)
        let connection = try await WebSocketClient(configuration: configuration).connect(to: server.url())
        // Five pings, each sent after 50 ms of silence following the previous pong.
        #expect(await server.wait(within: 20) { ($0.first?.frames.filter { $0.opcode == 0x9 }.count ?? 0) >= 5 })
        connection.close()
        let outcome = await WS.drain(connection)
        #expect(outcome.error == nil)
        let pings = (server.connections.first?.frames ?? []).filter { $0.opcode == 0x9 }
        #expect(pings.allSatisfy { $0.masked && $0.payload.isEmpty })
        #expect(server.connections.first?.violations == [])
    }
}
