import Dispatch

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals that ask a long-running command to stop (Ctrl-C's SIGINT, `kill`'s SIGTERM, and
/// SIGHUP when the terminal goes away) as an async stream, so that the command can stop cleanly
/// and restore the terminal instead of being killed mid-draw.
public enum InterruptSignal {
    /// The signals the stream reports.
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// One element per stop signal from now until the stream ends (its consumer stops iterating
    /// or its task is cancelled); then each signal's previous disposition comes back.
    ///
    /// Each signal is ignored first (`signal(_, SIG_IGN)`), as a dispatch signal source
    /// requires, so that the process is not killed before the source sees it. A signal that
    /// was already ignored when the stream started (`nohup` ignores SIGHUP, a shell ignores
    /// SIGINT for background jobs) stays ignored and is not reported.
    public static func stream() -> AsyncStream<Void> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            var watched: [(number: Int32, previous: Disposition, source: SignalSource)] = []
            for number in stopSignals {
                let previous = Disposition(signal(number, SIG_IGN))
                if previous.isIgnored { continue }
                let source = SignalSource(DispatchSource.makeSignalSource(signal: number, queue: .global()))
                source.handle { continuation.yield() }
                watched.append((number, previous, source))
            }
            let sources = watched
            continuation.onTermination = { _ in
                for (number, previous, source) in sources {
                    source.cancel()
                    signal(number, previous.handler)
                }
            }
        }
    }
}

/// A signal's previous disposition, kept to be put back.
///
/// `@unchecked Sendable` at the signal (C) boundary: it holds a C function pointer (`SIG_DFL`,
/// `SIG_IGN`, or a handler some caller installed), which is immutable and safe to pass between
/// threads.
private struct Disposition: @unchecked Sendable {
    typealias Handler = @convention(c) (Int32) -> Void

    /// `nil` is `SIG_DFL`, the null handler.
    let handler: Handler?

    init(_ handler: Handler?) {
        self.handler = handler
    }

    /// Whether it is `SIG_IGN`. Handlers are C function pointers, compared by address.
    var isIgnored: Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// Owns a dispatch signal source.
///
/// `@unchecked Sendable` at the signal (C) boundary: the source is configured and resumed
/// once, in `handle`, before the value is shared; afterwards only `cancel()` touches it, and
/// dispatch sources are thread-safe for cancellation.
private final class SignalSource: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    init(_ source: any DispatchSourceSignal) {
        self.source = source
    }

    func handle(_ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}
