import AggCore

/// A venue codec's run over a real connection to a loopback stream server, for the venues'
/// stream tests: what the codec read, and what the server saw.
public struct TickerStreamRun: Sendable {
    /// The codec's readings, replies, and how the messages ended.
    public var transcript: TickerStreamTranscript
    /// What the server saw on each connection (the subscribe messages, any violation).
    public var connections: [WebSocketServerConnectionRecord]
    /// Whether the server saw the connection end within 10 s of the run.
    public var ended: Bool

    /// How the stream ended, as the core's runner reads it (`nil` when the run stopped first).
    public var fault: StreamFault? { transcript.error as? StreamFault }

    /// Connects `connector` (the real `WebSocketClient`) to `server`, subscribes `markets` with
    /// `codec`'s messages, reads every message through `codec` (received at `receivedAt`),
    /// answering its replies, until `until` holds or the stream ends; then closes and waits for
    /// the server to see the end.
    public static func play(
        _ codec: any TickerStreamCodec, markets: [Market], server: WebSocketLoopbackServer,
        connector: any WebSocketConnector, receivedAt: Timestamp, until: (TickerStreamTranscript) -> Bool
    ) async throws -> TickerStreamRun {
        let connection = try await connector.connectStream(to: server.url(), headers: [])
        let transcript = await TickerStreamTranscript.play(
            codec, markets: markets, messages: connection.messages, send: connection.send, clock: { receivedAt },
            until: until)
        connection.close(code: 1000)
        let ended = await server.wait(within: 10) { $0.first?.ended == true }
        return TickerStreamRun(transcript: transcript, connections: server.connections, ended: ended)
    }
}

extension TickerStreamTranscript {
    /// The close code that ended the messages, when the venue closed the stream.
    public var closeCode: UInt16? {
        if case .closed(let code, _) = error as? StreamFault { return code }
        return nil
    }
}
