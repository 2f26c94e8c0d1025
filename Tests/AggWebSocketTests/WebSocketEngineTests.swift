import AggTestKit
import Testing

@testable import AggTransport

@Suite("WebSocket client: one engine thread for every connection", .timeLimit(.minutes(5)))
struct WebSocketEngineTests {
    @Test("50 connections are open at once, all served by the one engine thread")
    func manyConnectionsOneThread() async throws {
        let count = 50
        let server = try WebSocketLoopbackServer(
            script: WS.script(#"{"expect":"text","data":"hello"}"#, #"{"send":"text","data":"world"}"#))
        let client = WebSocketClient()
        var connections: [WebSocketConnection] = []
        for _ in 0..<count { connections.append(try await client.connect(to: server.url())) }
        #expect(client.engineProbe.connectionCount == count)
        let replies = await withTaskGroup(of: String?.self) { group in
            for connection in connections {
                group.addTask {
                    connection.send(text: "hello")
                    var iterator = connection.messages.makeAsyncIterator()
                    let message = try? await iterator.next()
                    return message.map { String(decoding: $0.bytes, as: UTF8.self) }
                }
            }
            var replies: [String?] = []
            for await reply in group { replies.append(reply) }
            return replies
        }
        #expect(replies == Array(repeating: "world", count: count))
        #expect(client.engineProbe.connectionCount == count)
        let threads = client.engineProbe.ioThreadIDs
        #expect(threads.count == 1)
        for connection in connections { connection.close() }
        #expect(await eventually { client.engineProbe.connectionCount == 0 })
        #expect(
            await server.wait(within: 10) { $0.count == count && $0.allSatisfy { $0.ended && $0.violations.isEmpty } })
    }

    @Test("releasing the client and its connections ends the engine thread; an open stream ends as shut down")
    func releaseEndsThread() async throws {
        let server = try WebSocketLoopbackServer(script: WS.script())
        var client: WebSocketClient? = WebSocketClient()
        let probe = try #require(client?.engineProbe)
        let url = server.url()
        let connection = try await client?.connect(to: url)
        let messages = try #require(connection?.messages)
        #expect(probe.isWorkerRunning)
        client = nil
        #expect(probe.isWorkerRunning)
        // The connection holds the engine; dropping it closes the stream and lets the thread go.
        _ = consume connection
        var iterator = messages.makeAsyncIterator()
        let error = await WS.error { while try await iterator.next() != nil {} }
        #expect(error == nil || error as? WebSocketError == .shutDown(url: url))
        #expect(await eventually { !probe.isWorkerRunning })
    }
}
