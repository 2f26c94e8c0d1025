/// The time a stream runner keeps: a monotonic clock for its deadlines (keep-alives, silence,
/// pacing, backoff, the fallback to polling) and the wall clock for `Quote.receivedAt`. Tests
/// inject a clock they advance by hand.
public protocol StreamClock: Sendable {
    /// Monotonic time since an origin of the clock's choosing.
    var now: Duration { get }

    /// Waits until `now` reaches `deadline`; at once when it has.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled.
    func sleep(until deadline: Duration) async throws

    /// The wall-clock time, for the `receivedAt` of quotes.
    var wallTime: Timestamp { get }
}

/// The real clock: `ContinuousClock` from its creation, and the system's wall clock.
public struct SystemStreamClock: StreamClock {
    private let origin: ContinuousClock.Instant

    /// A clock whose `now` counts from this moment.
    public init() {
        origin = ContinuousClock.now
    }

    public var now: Duration { origin.duration(to: ContinuousClock.now) }

    public func sleep(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin.advanced(by: deadline), tolerance: nil)
    }

    public var wallTime: Timestamp { ValueBounds.systemNow() }
}
