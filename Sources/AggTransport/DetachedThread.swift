#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A detached POSIX thread running one closure, so the transport needs no `Foundation.Thread`
/// (keeping the binary on FoundationEssentials, which halves its memory at start).
enum DetachedThread {
    /// The closure handed to the new thread, retained until the thread takes it.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread; returns `false` if the thread could not be made.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
                body.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
