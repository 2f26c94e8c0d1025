/// Opens WebSocket connections for the stream runner. AggCore stays free of transport code:
/// AggTransport's `WebSocketClient` conforms (libcurl and wslay), tests plug in others, and a
/// service receives a connector the way it receives an `HTTPClient`.
public protocol WebSocketConnector: Sendable {
    /// Connects to `url` and completes the opening handshake.
    ///
    /// - Throws: `StreamFault` when the connection or the handshake fails (unreachable, a
    ///   refused or invalid handshake), `CancellationError` when the calling task is cancelled.
    func connectStream(to url: String, headers: [HTTPHeader]) async throws -> any StreamConnection
}

/// One open WebSocket connection, as the stream runner uses it.
public protocol StreamConnection: Sendable {
    /// The text and binary messages received, in order. The sequence ends by throwing the
    /// `StreamFault` that ended the connection (a close code, a drop, an oversize message, a
    /// protocol violation, a stall the transport noticed), and without an error after `close`
    /// or when the reading task is cancelled.
    var messages: AsyncThrowingStream<StreamMessage, any Error> { get }

    /// Queues a message.
    func send(_ message: StreamMessage)

    /// Every WebSocket pong frame received (answers to `ping` and to the transport's own
    /// keep-alive), as it comes; it ends with the connection. The runner counts a pong as life:
    /// a quiet market kept open by pings is not a stalled stream.
    var pongs: AsyncStream<Void> { get }

    /// Sends a WebSocket ping frame; the transport checks that its pong comes.
    func ping()

    /// Starts the closing handshake with `code`; ending `messages` also closes.
    func close(code: UInt16)
}

extension StreamConnection {
    /// A connection that does not report pongs: a stream that ends at once, so only messages
    /// count as life.
    public var pongs: AsyncStream<Void> { AsyncStream { $0.finish() } }
}
