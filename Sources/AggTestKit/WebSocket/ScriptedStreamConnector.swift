import AggCore
import Synchronization

/// A `WebSocketConnector` without sockets, for tests of what consumes streams: every connection
/// the runner opens is kept, in order, and the test delivers its messages, ends it with a fault,
/// and reads what the client sent.
public final class ScriptedStreamConnector: WebSocketConnector {
    private let opened = Mutex<[ScriptedStreamConnection]>([])

    public init() {}

    public func connectStream(to url: String, headers: [HTTPHeader]) async throws -> any StreamConnection {
        try Task.checkCancellation()
        let connection = ScriptedStreamConnection(url: url)
        opened.withLock { $0.append(connection) }
        return connection
    }

    /// The connections opened so far, in order.
    public var connections: [ScriptedStreamConnection] { opened.withLock { $0 } }

    /// Waits (real time, at most `seconds`) until `count` connections were opened; the last.
    public func connection(_ count: Int, within seconds: Double = 60) async -> ScriptedStreamConnection? {
        guard await RealTime.poll(within: seconds, { self.connections.count >= count }) else { return nil }
        return connections[count - 1]
    }
}

/// One connection of `ScriptedStreamConnector`.
public final class ScriptedStreamConnection: StreamConnection {
    /// The URL the runner connected to.
    public let url: String
    public let messages: AsyncThrowingStream<StreamMessage, any Error>
    private let continuation: AsyncThrowingStream<StreamMessage, any Error>.Continuation
    private let log = Mutex<(sent: [StreamMessage], closed: UInt16?)>(([], nil))

    init(url: String) {
        self.url = url
        (messages, continuation) = AsyncThrowingStream<StreamMessage, any Error>.makeStream()
    }

    public func send(_ message: StreamMessage) {
        log.withLock { $0.sent.append(message) }
    }

    public func ping() {}

    public func close(code: UInt16) {
        log.withLock { $0.closed = $0.closed ?? code }
        continuation.finish()
    }

    /// The venue sends `text`.
    public func deliver(_ text: String) {
        continuation.yield(.text(text))
    }

    /// The connection ends with `fault` (a drop, a close code, a stall).
    public func fail(_ fault: StreamFault) {
        continuation.finish(throwing: fault)
    }

    /// What the client sent, in order.
    public var sent: [StreamMessage] { log.withLock { $0.sent } }

    /// The code the client closed with; `nil` while open.
    public var closedWith: UInt16? { log.withLock { $0.closed } }
}
