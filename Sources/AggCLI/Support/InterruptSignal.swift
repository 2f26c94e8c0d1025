import Dispatch

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) as an async stream, so that a long-running command can stop cleanly and
/// restore the terminal instead of being killed mid-draw.
public enum InterruptSignal {
    /// One element per SIGINT from now until the stream ends (its consumer stops iterating or
    /// its task is cancelled); then SIGINT's default action, ending the process, comes back.
    ///
    /// The signal is ignored first (`signal(SIGINT, SIG_IGN)`), as a dispatch signal source
    /// requires, so that the process is not killed before the source sees it.
    public static func stream() -> AsyncStream<Void> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            signal(SIGINT, SIG_IGN)
            let source = SignalSource(DispatchSource.makeSignalSource(signal: SIGINT, queue: .global()))
            source.handle { continuation.yield() }
            continuation.onTermination = { _ in
                source.cancel()
                signal(SIGINT, SIG_DFL)
            }
        }
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
