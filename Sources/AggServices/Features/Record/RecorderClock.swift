import AggCore

/// Time as `agg record` sees it: the current time, a sleep between ticks, and the clock the
/// venues' token buckets and retries run on. Tests pass one whose sleep only moves a counter,
/// so that they run thousands of ticks in a moment.
package struct RecorderClock: Sendable {
    /// The current time; each tick is stamped with it.
    var now: @Sendable () -> Timestamp
    /// Waits `seconds` (never negative); throws when the waiting task is cancelled.
    var sleep: @Sendable (_ seconds: Double) async throws -> Void
    /// What the token buckets and retries measure time with.
    package var retry: RetryClock

    package init(
        now: @escaping @Sendable () -> Timestamp, sleep: @escaping @Sendable (_ seconds: Double) async throws -> Void,
        retry: RetryClock
    ) {
        self.now = now
        self.sleep = sleep
        self.retry = retry
    }

    /// The system clock.
    package static let system = RecorderClock(
        now: { Timestamp.now },
        sleep: { seconds in try await Task.sleep(nanoseconds: RetryClock.nanoseconds(seconds)) },
        retry: .system)
}
