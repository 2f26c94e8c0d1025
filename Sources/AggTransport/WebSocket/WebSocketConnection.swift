/// One open WebSocket connection.
///
/// `messages` yields every text and binary message as it arrives and ends when the connection
/// does: normally after `close()`, by throwing `WebSocketError` otherwise (the server's close
/// code, a drop, a stall past the keep-alive, an oversize message, a protocol violation).
/// Pings are answered by the engine; pongs are reported on `pongs`; releasing the connection or
/// abandoning `messages` closes it.
public final class WebSocketConnection: Sendable {
    /// The URL connected to.
    public let url: String
    /// The messages received, in order.
    public let messages: AsyncThrowingStream<WebSocketMessage, any Error>
    /// The payload of each pong received (the answers to `ping` and the keep-alive's pings, or a
    /// server's unsolicited ones), as they come: a reader that lags sees the newest only. It
    /// ends when the connection does.
    public let pongs: AsyncStream<[UInt8]>

    private let id: Int
    private let engine: WebSocketEngineLifetime

    init(
        id: Int, url: String, messages: AsyncThrowingStream<WebSocketMessage, any Error>,
        pongs: AsyncStream<[UInt8]>, engine: WebSocketEngineLifetime
    ) {
        self.id = id
        self.url = url
        self.messages = messages
        self.pongs = pongs
        self.engine = engine
    }

    deinit {
        engine.mailbox.post(.close(id: id, code: 1000, reason: ""))
    }

    /// Queues a text message (sent masked, as a client must). Does nothing once closed.
    public func send(text: String) {
        engine.mailbox.post(.send(id: id, opcode: 0x1, bytes: Array(text.utf8)))
    }

    /// Queues a binary message. Does nothing once closed.
    public func send(binary: [UInt8]) {
        engine.mailbox.post(.send(id: id, opcode: 0x2, bytes: binary))
    }

    /// Sends a ping with `payload` (at most 125 bytes); the keep-alive sends its own.
    public func ping(_ payload: [UInt8] = []) {
        engine.mailbox.post(.send(id: id, opcode: 0x9, bytes: Array(payload.prefix(125))))
    }

    /// Starts the closing handshake with `code`; `messages` ends without an error once the
    /// server answers, or after the configured close timeout.
    public func close(code: UInt16 = 1000, reason: String = "") {
        engine.mailbox.post(.close(id: id, code: code, reason: reason))
    }
}
