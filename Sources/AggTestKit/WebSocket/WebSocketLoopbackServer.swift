import AggCore
import Dispatch
import Foundation
import Synchronization

/// What the loopback WebSocket server saw on one connection.
public struct WebSocketServerConnectionRecord: Sendable, Equatable {
    /// The upgrade request, once read.
    public var request: LoopbackRequest?
    /// Every frame the client sent, in order.
    public var frames: [WebSocketReceivedFrame] = []
    /// Every way the client broke the script or the RFC (an unexpected subscribe message, an
    /// unmasked frame, a bad upgrade request); empty when it behaved.
    public var violations: [String] = []
    /// Whether the server is done with the connection.
    public var ended = false

    /// The payloads of the text and binary frames the client sent, as text.
    public var messages: [String] {
        frames.filter { $0.opcode == 0x1 || $0.opcode == 0x2 }.map { String(decoding: $0.payload, as: UTF8.self) }
    }
}

/// A WebSocket server on 127.0.0.1 for tests, on the loopback HTTP server's socket code
/// (`LoopbackSocket`, `LoopbackRequest`): each connection reads the upgrade request, answers
/// it (or refuses it, as its script says) and plays its frame script, one thread per connection.
///
/// Connection n (from 0) plays `scripts[n]`, the last script once they run out, so a test can
/// script a first connection that drops and a second, the reconnect, that streams. Server frames
/// are unmasked; every client frame is checked masked. After its last step a connection answers
/// pings and waits for the client's close.
public final class WebSocketLoopbackServer: Sendable {
    private let core: WebSocketServerCore

    /// Starts a server whose connections play `scripts` in turn.
    public init(scripts: [WebSocketScript]) throws {
        precondition(!scripts.isEmpty, "a WebSocket loopback server needs a script")
        core = try WebSocketServerCore(scripts: scripts)
        core.start()
    }

    /// Starts a server whose every connection plays `script`.
    public convenience init(script: WebSocketScript) throws {
        try self.init(scripts: [script])
    }

    deinit {
        core.stop()
    }

    /// The port the server listens on.
    public var port: Int { core.port }

    /// `ws://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> String { "ws://127.0.0.1:\(port)\(path)" }

    /// What each connection saw so far, in the order they were accepted.
    public var connections: [WebSocketServerConnectionRecord] { core.records }

    /// Waits until `condition` holds for the connection records, checking every 5 ms, at most
    /// `seconds`; returns whether it held. It sleeps rather than blocks, so waiting tests leave
    /// the cooperative threads to the code under test.
    public func wait(
        within seconds: Double, until condition: ([WebSocketServerConnectionRecord]) -> Bool
    ) async -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while !condition(core.records) {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Stops accepting and shuts every open connection down (a drop, from the client's side).
    public func stop() {
        core.stop()
    }
}

/// The state the server shares with its threads: the acceptor and each connection's record.
final class WebSocketServerCore: Sendable {
    private let acceptor: LoopbackAcceptor
    private let scripts: [WebSocketScript]
    private let state = Mutex<[WebSocketServerConnectionRecord]>([])

    var port: Int { acceptor.port }

    init(scripts: [WebSocketScript]) throws(LoopbackServerError) {
        acceptor = try LoopbackAcceptor(threadName: "loopback-ws")
        self.scripts = scripts
    }

    /// Starts accepting: connection n gets record n and plays `scripts[n]` (the last script once
    /// they run out).
    func start() {
        acceptor.start { [self] connection, index in
            state.withLock { $0.append(WebSocketServerConnectionRecord()) }
            let script = scripts[min(index, scripts.count - 1)]
            return { [self] in
                var session = WebSocketServerConnection(
                    descriptor: connection, index: index, script: script, core: self)
                session.run()
                record(index) { $0.ended = true }
            }
        }
    }

    var records: [WebSocketServerConnectionRecord] { state.withLock { $0 } }

    func record(_ index: Int, _ change: (inout WebSocketServerConnectionRecord) -> Void) {
        state.withLock { change(&$0[index]) }
    }

    func stop() {
        acceptor.stop()
    }
}
