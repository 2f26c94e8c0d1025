import Foundation
import Synchronization

/// The state a loopback server shares with its threads.
///
/// Threads hold this object rather than the `LoopbackServer`, so that releasing the server runs
/// its `deinit`, which stops everything.
final class LoopbackServerCore: Sendable {
    private let acceptor: LoopbackAcceptor
    private let handler: @Sendable (LoopbackRequest) -> LoopbackReply
    private let received = Mutex<[LoopbackRequest]>([])

    var port: Int { acceptor.port }

    init(handler: @escaping @Sendable (LoopbackRequest) -> LoopbackReply) throws(LoopbackServerError) {
        acceptor = try LoopbackAcceptor(threadName: "loopback")
        self.handler = handler
    }

    /// Starts the thread that accepts connections.
    func start() {
        acceptor.start { [self] connection, _ in { [self] in serve(connection) } }
    }

    var requests: [LoopbackRequest] {
        received.withLock { $0 }
    }

    func forgetRequests() {
        received.withLock { $0.removeAll() }
    }

    /// Stops accepting, shuts down open connections (ending hanging ones) and waits until the
    /// listening socket is closed, so that the port refuses connections once this returns.
    func stop() {
        acceptor.stop()
    }

    /// Serves one request on `connection` (the acceptor closes it after).
    private func serve(_ connection: Int32) {
        guard let request = LoopbackRequest.read(from: connection) else { return }
        received.withLock { $0.append(request) }
        let reply = handler(request)
        if reply.delay > 0 {
            guard LoopbackSocket.waitWhileOpen(connection, seconds: reply.delay) else { return }
        }
        switch reply.fault {
        case .none:
            LoopbackSocket.sendAll(connection, reply.headBytes + reply.body)
        case .truncate(let afterBytes):
            LoopbackSocket.sendAll(connection, reply.headBytes + reply.body.prefix(max(afterBytes, 0)))
        case .dropConnection:
            break
        case .hang:
            LoopbackSocket.waitUntilClosed(connection)
        }
    }
}
