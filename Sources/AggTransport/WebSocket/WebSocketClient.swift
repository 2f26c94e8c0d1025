import AggCore

/// Opens WebSocket connections: libcurl makes the connection (DNS, proxies, TLS for wss://,
/// the connect timeout), the client writes and checks the opening handshake itself, and wslay
/// (RFC 6455 framing, Debian's libwslay) frames the messages.
///
/// Every connection of a client runs on one engine thread that polls all their sockets: no
/// thread per connection. The thread ends when the client and all its connections are released.
///
/// ```swift
/// let client = WebSocketClient()
/// let connection = try await client.connect(to: "wss://api.upbit.com/websocket/v1")
/// connection.send(text: #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]}]"#)
/// for try await message in connection.messages { ... }
/// ```
public final class WebSocketClient: Sendable {
    /// The deadlines and limits of every connection.
    public let configuration: WebSocketConfiguration
    /// `nil` when the engine could not start; every connection then fails.
    private let engine: WebSocketEngineLifetime?

    /// Creates a client and starts its engine thread.
    public init(configuration: WebSocketConfiguration = WebSocketConfiguration()) {
        self.configuration = configuration
        engine = WebSocketEngineLifetime.start()
    }

    /// Connects to `url` (ws://, wss://, or their http:// and https:// forms) and completes the
    /// opening handshake.
    ///
    /// - Parameter headers: extra header lines of the upgrade request.
    /// - Throws: `WebSocketError` (`.invalidURL`, `.connection`, `.timeout`, `.handshakeRefused`,
    ///   `.handshakeInvalid`, `.shutDown`), or `CancellationError` when the task is cancelled.
    public func connect(to url: String, headers: [HTTPHeader] = []) async throws -> WebSocketConnection {
        let parsed = try WebSocketURL(url)
        guard let engine else {
            throw WebSocketError.connection(url: url, detail: "the WebSocket engine could not start")
        }
        let mailbox = engine.mailbox
        let id = mailbox.makeID()
        let (messages, continuation) = AsyncThrowingStream<WebSocketMessage, any Error>.makeStream()
        continuation.onTermination = { _ in mailbox.post(.close(id: id, code: 1000, reason: "")) }
        // Only that pongs came matters, not how many: the newest is kept until it is read.
        let (pongs, pongContinuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let configuration = configuration
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (opened: CheckedContinuation<Void, any Error>) in
                let opening = WebSocketOpening(
                    id: id, url: parsed, headers: headers, configuration: configuration, opened: opened,
                    messages: continuation, pongs: pongContinuation)
                if !mailbox.post(.open(opening)) {
                    continuation.finish(throwing: WebSocketError.shutDown(url: url))
                    pongContinuation.finish()
                    opened.resume(throwing: WebSocketError.shutDown(url: url))
                }
            }
        } onCancel: {
            mailbox.post(.cancel(id: id))
        }
        return WebSocketConnection(id: id, url: url, messages: messages, pongs: pongs, engine: engine)
    }

    /// A view of the engine thread, for tests.
    package var engineProbe: WebSocketEngineProbe {
        WebSocketEngineProbe(mailbox: engine?.mailbox)
    }
}

/// Keeps the engine thread running while the client or any connection holds it.
final class WebSocketEngineLifetime: Sendable {
    let mailbox: WebSocketMailbox

    private init(mailbox: WebSocketMailbox) {
        self.mailbox = mailbox
    }

    static func start() -> WebSocketEngineLifetime? {
        guard let mailbox = WebSocketMailbox() else { return nil }
        guard WebSocketEngine.start(mailbox: mailbox) else { return nil }
        return WebSocketEngineLifetime(mailbox: mailbox)
    }

    deinit {
        mailbox.requestShutdown()
    }
}

/// Observes a client's engine thread, for tests.
package struct WebSocketEngineProbe: Sendable {
    fileprivate let mailbox: WebSocketMailbox?

    /// Whether the engine thread is still running.
    package var isWorkerRunning: Bool { mailbox?.isWorkerRunning ?? false }

    /// The connections the engine holds right now (opening, open or closing).
    package var connectionCount: Int { mailbox?.sessionCount ?? 0 }

    /// The `pthread_t` of every thread that has served the connections' sockets.
    package var ioThreadIDs: Set<UInt> { mailbox?.ioThreadIDs ?? [] }
}
