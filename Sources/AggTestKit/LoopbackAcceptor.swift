import Dispatch
import Foundation
import Glibc
import Synchronization

/// The listening half of a loopback server: the socket on 127.0.0.1, the thread that accepts,
/// one thread a connection, the set of open connections and the stop that ends them all.
///
/// `LoopbackServer` (one HTTP request a connection) and `WebSocketLoopbackServer` (a frame
/// script a connection) differ only in what they do with a connection, which they hand to
/// `start(_:)`. The acceptor keeps no reference to that work, so a server's core that holds the
/// acceptor is released once its accept thread has ended.
final class LoopbackAcceptor: Sendable {
    /// What a server does with a connection. It is called on the accepting thread with the
    /// connection and its number (from 0, in the order accepted), so that a server can record
    /// connections in order; the work it returns runs on the connection's own thread, after which
    /// the connection leaves the open set and is closed.
    typealias Admit = @Sendable (_ connection: Int32, _ index: Int) -> @Sendable () -> Void

    private struct State {
        var stopped = false
        /// Connections being served. A descriptor leaves this set before it is closed, and
        /// `stop()` shuts them down under the lock, so it never touches a reused number.
        var connections: Set<Int32> = []
        var accepted = 0
    }

    /// The port the listening socket is bound to.
    let port: Int
    private let listener: Int32
    private let threadName: String
    private let state = Mutex(State())
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// Listens on a free port of 127.0.0.1; threads are named `<threadName>-accept` and
    /// `<threadName>-connection`.
    init(threadName: String) throws(LoopbackServerError) {
        let (listener, port) = try LoopbackSocket.listenOnLoopback()
        self.listener = listener
        self.port = port
        self.threadName = threadName
    }

    /// Starts the thread that accepts connections and hands each to `admit`.
    func start(_ admit: @escaping Admit) {
        let thread = Thread { [self] in acceptLoop(admit) }
        thread.name = threadName + "-accept"
        thread.start()
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

    private func acceptLoop(_ admit: Admit) {
        defer {
            close(listener)
            acceptLoopEnded.signal()
        }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if state.withLock({ $0.stopped }) { return }
                // EINTR, ECONNABORTED, or running out of descriptors: try again shortly.
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            // Glibc's module does not offer accept4(); a child process started by another test
            // must not inherit the connection, or a closed connection would stay open.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            // Each write goes out at once, as a venue's server sends: with Nagle's algorithm a
            // frame written in two parts (header, then payload) waits for the client's delayed
            // ACK, 40 ms on Linux, which no real venue adds and which reconnect timings measured.
            var one: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), &one, socklen_t(MemoryLayout<Int32>.size))
            let index = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.connections.insert(connection)
                state.accepted += 1
                return state.accepted - 1
            }
            guard let index else {
                close(connection)
                return
            }
            let work = admit(connection, index)
            let thread = Thread { [self] in
                work()
                state.withLock { _ = $0.connections.remove(connection) }
                close(connection)
            }
            thread.name = threadName + "-connection"
            thread.start()
        }
    }
}
