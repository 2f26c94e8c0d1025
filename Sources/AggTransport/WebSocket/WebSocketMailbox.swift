import AggCore
import Glibc
import Synchronization

/// What a caller asks of the WebSocket engine thread.
enum WebSocketCommand: Sendable {
    case open(WebSocketOpening)
    case send(id: Int, opcode: UInt8, bytes: [UInt8])
    case close(id: Int, code: UInt16, reason: String)
    case cancel(id: Int)
}

/// A connection to open: where to, and whom to tell.
struct WebSocketOpening: Sendable {
    let id: Int
    let url: WebSocketURL
    let headers: [HTTPHeader]
    let configuration: WebSocketConfiguration
    /// Resumed once: when the handshake succeeds or the opening fails.
    let opened: CheckedContinuation<Void, any Error>
    /// Fed every message, then finished when the connection ends.
    let messages: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    /// Fed the payload of every pong received, then finished with `messages`.
    let pongs: AsyncStream<[UInt8]>.Continuation
}

/// The hand-over point between callers and the WebSocket engine thread: a queue of commands
/// under a lock, and a pipe whose read end is in the engine's poll set, so posting wakes it.
final class WebSocketMailbox: Sendable {
    private struct State {
        var commands: [WebSocketCommand] = []
        var shutdownRequested = false
        var workerRunning = true
        var nextID = 0
    }

    private let state = Mutex(State())
    private let wakePipe: WakePipe
    /// The number of connections the engine holds (opening, open or closing), for tests.
    private let sessions = Atomic<Int>(0)
    /// Every thread that has served the connections' sockets, for tests: one, by design.
    private let ioThreads = Mutex<Set<UInt>>([])

    init?() {
        guard let pipe = WakePipe() else { return nil }
        wakePipe = pipe
    }

    /// The descriptor the engine polls to learn that commands are waiting.
    var wakeDescriptor: Int32 { wakePipe.readEnd }

    /// A number no other connection of this engine has.
    func makeID() -> Int {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Posts `command`; returns `false` (posting nothing) once shutdown was asked for.
    @discardableResult
    func post(_ command: WebSocketCommand) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.shutdownRequested else { return false }
            state.commands.append(command)
            return true
        }
        if accepted { wakePipe.wake() }
        return accepted
    }

    /// Asks the engine to fail every connection and end its thread.
    func requestShutdown() {
        state.withLock { $0.shutdownRequested = true }
        wakePipe.wake()
    }

    /// Takes the commands posted so far, and whether shutdown was asked for.
    func take() -> (commands: [WebSocketCommand], shutdown: Bool) {
        wakePipe.drain()
        return state.withLock { state in
            let commands = state.commands
            state.commands = []
            return (commands, state.shutdownRequested)
        }
    }

    /// Called by the engine thread as its last action.
    func markWorkerFinished() {
        state.withLock { $0.workerRunning = false }
    }

    var isWorkerRunning: Bool { state.withLock { $0.workerRunning } }

    func setSessionCount(_ count: Int) { sessions.store(count, ordering: .relaxed) }

    var sessionCount: Int { sessions.load(ordering: .relaxed) }

    /// Records `thread` as one that served sockets.
    func noteIOThread(_ thread: UInt) {
        ioThreads.withLock { _ = $0.insert(thread) }
    }

    var ioThreadIDs: Set<UInt> { ioThreads.withLock { $0 } }
}

/// A non-blocking pipe: writing a byte wakes the engine's `poll`.
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Makes the read end readable (a full pipe is readable already, so EAGAIN is fine).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
