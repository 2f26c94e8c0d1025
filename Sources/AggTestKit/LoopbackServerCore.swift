import Dispatch
import Foundation
import Glibc
import Synchronization

/// The state a loopback server shares with its threads.
///
/// Threads hold this object rather than the `LoopbackServer`, so that releasing the server runs
/// its `deinit`, which stops everything.
final class LoopbackServerCore: Sendable {
    private struct State {
        var stopped = false
        /// Connections being served. A descriptor leaves this set before it is closed, and
        /// `stop()` shuts them down under the lock, so it never touches a reused number.
        var connections: Set<Int32> = []
        var requests: [LoopbackRequest] = []
    }

    let port: Int
    private let listener: Int32
    private let handler: @Sendable (LoopbackRequest) -> LoopbackReply
    private let state = Mutex(State())
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    init(handler: @escaping @Sendable (LoopbackRequest) -> LoopbackReply) throws(LoopbackServerError) {
        let (listener, port) = try LoopbackSocket.listenOnLoopback()
        self.listener = listener
        self.port = port
        self.handler = handler
    }

    /// Starts the thread that accepts connections.
    func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-accept"
        thread.start()
    }

    var requests: [LoopbackRequest] {
        state.withLock { $0.requests }
    }

    func forgetRequests() {
        state.withLock { $0.requests.removeAll() }
    }

    /// Stops accepting, shuts down open connections (ending hanging ones) and waits until the
    /// listening socket is closed, so that the port refuses connections once this returns.
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            // shutdown() wakes a thread blocked in accept() or recv() on these sockets.
            shutdown(listener, Int32(SHUT_RDWR))
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
            return true
        }
        if wasRunning { _ = acceptLoopEnded.wait(timeout: .now() + 5) }
    }

    private var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    private func acceptLoop() {
        defer {
            close(listener)
            acceptLoopEnded.signal()
        }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if isStopped { return }
                // EINTR, ECONNABORTED, or running out of descriptors: try again shortly.
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            // Glibc's module does not offer accept4(); a child process started by another test
            // must not inherit the connection, or a closed connection would stay open.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            let registered = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard registered else {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "loopback-connection"
            thread.start()
        }
    }

    /// Serves one request on `connection`, then closes it.
    private func serve(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            close(connection)
        }
        guard let request = LoopbackRequest.read(from: connection) else { return }
        state.withLock { $0.requests.append(request) }
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
