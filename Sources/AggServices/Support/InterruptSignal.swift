import Dispatch

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals that ask a long-running command to stop (Ctrl-C's SIGINT, `kill`'s SIGTERM, and
/// SIGHUP when the terminal goes away) as an async stream, so that the command can stop cleanly
/// and restore the terminal instead of being killed mid-draw.
package enum InterruptSignal {
    /// The signals the stream reports.
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// One element per stop signal from now until the stream ends (its consumer stops iterating
    /// or its task is cancelled); then each signal's previous disposition comes back. One stream
    /// at a time: a second one running at once would share the first one's signals.
    ///
    /// Each signal gets a handler (`sigaction`) that writes one byte to a pipe, and a dispatch
    /// read source turns the bytes into elements. A dispatch *signal* source is not used: on
    /// Linux it needs the signal ignored first, and a signal sent while ignored in the thread the
    /// kernel picks is dropped (seen: `agg record` went on ticking after the SIGTERM of a test,
    /// with SIGTERM still ignored). A handler runs in whichever thread receives the signal, so
    /// none is lost. A signal that was already ignored when the stream started (`nohup` ignores
    /// SIGHUP, a shell ignores SIGINT for background jobs) stays ignored and is not reported.
    static func stream() -> AsyncStream<Void> {
        make { _ in () }
    }

    /// As `stream()`, each element the number of the signal (`SIGINT`, `SIGTERM`, `SIGHUP`), for
    /// a command that exits with the shell's status for it (128 + the number).
    static func signals() -> AsyncStream<Int32> {
        make { Int32($0) }
    }

    private static func make<Element: Sendable>(_ element: @escaping @Sendable (UInt8) -> Element)
        -> AsyncStream<Element>
    {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let pipe = InterruptPipe.shared
            pipe.drain()
            var watched: [(number: Int32, previous: Disposition)] = []
            for number in stopSignals {
                guard let previous = Disposition.install(number) else { continue }
                watched.append((number, previous))
            }
            let source = ReadSource(fileDescriptor: pipe.read)
            source.handle {
                for number in pipe.drain() { continuation.yield(element(number)) }
            }
            let sources = watched
            continuation.onTermination = { _ in
                for (number, previous) in sources { previous.restore(number) }
                source.cancel()
            }
        }
    }
}

/// The pipe a stop signal's handler writes one byte to (the self-pipe trick: `write` is one of
/// the few calls a signal handler may make).
///
/// A process-wide constant at the signal (C) boundary: the handler is a C function that can
/// capture nothing, so it finds the pipe here. It is created once and never changes.
private struct InterruptPipe: Sendable {
    let read: Int32
    let write: Int32

    static let shared = InterruptPipe()

    private init() {
        var ends: [Int32] = [-1, -1]
        // Both ends non-blocking: the handler never waits on a full pipe (one byte pending is
        // enough to stop), and the reader drains it without waiting.
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        read = ends[0]
        write = ends[1]
    }

    /// Reads what the pipe holds: one byte a signal, its number.
    @discardableResult
    func drain() -> [UInt8] {
        var total: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            if count > 0 {
                total += buffer.prefix(count)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return total
            }
        }
    }
}

/// The handler of every stop signal: one byte, the signal's number, into the pipe, errno left
/// as it was.
private let writeSignalByte: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(InterruptPipe.shared.write, &byte, 1)
    errno = saved
}

/// A signal's previous disposition, kept to be put back.
///
/// `@unchecked Sendable` at the signal (C) boundary: it holds a C `sigaction` (a handler
/// pointer, a mask and flags), which is copied once when the handler is installed and only read
/// afterwards, to put it back.
private struct Disposition: @unchecked Sendable {
    let action: sigaction

    /// Installs the pipe-writing handler for `number` and returns what it replaced; `nil`, and
    /// nothing installed, when the signal was ignored.
    static func install(_ number: Int32) -> Disposition? {
        _ = InterruptPipe.shared  // created before any handler can run
        var previous = sigaction()
        guard sigaction(number, nil, &previous) == 0 else { return nil }
        if let handler = previous.__sigaction_handler.sa_handler,
            unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        {
            return nil
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = writeSignalByte
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        guard sigaction(number, &action, nil) == 0 else { return nil }
        return Disposition(action: previous)
    }

    /// Puts the previous disposition of `number` back.
    func restore(_ number: Int32) {
        var action = self.action
        sigaction(number, &action, nil)
    }
}

/// Owns a dispatch read source on the signal pipe.
///
/// `@unchecked Sendable` at the C boundary: the source is configured and resumed once, in
/// `handle`, before the value is shared; afterwards only `cancel()` touches it, and dispatch
/// sources are thread-safe for cancellation.
private final class ReadSource: @unchecked Sendable {
    private let source: any DispatchSourceRead

    init(fileDescriptor: Int32) {
        source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: .global())
    }

    func handle(_ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}
