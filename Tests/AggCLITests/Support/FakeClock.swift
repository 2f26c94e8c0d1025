import AggCore
import Synchronization

@testable import AggServices

/// A clock for `agg record`'s loop whose sleep only moves its time forward, so that a test runs
/// many ticks at once; it remembers every sleep.
final class FakeClock: Sendable {
    /// Monotonic milliseconds, the wall clock's offset from them, and the sleeps.
    private let state: Mutex<(milliseconds: Int64, wallOffset: Int64, sleeps: [Double])>

    init(start: Timestamp = Timestamp(secondsSince1970: 1_800_000_000)) {
        state = Mutex((start.millisecondsSince1970, 0, []))
    }

    /// The wall clock.
    var now: Timestamp { Timestamp(millisecondsSince1970: state.withLock { $0.milliseconds + $0.wallOffset }) }

    /// Steps the wall clock (not the monotonic one) by `seconds`, as NTP or an operator would.
    func stepWall(by seconds: Double) {
        state.withLock { $0.wallOffset += Int64((seconds * 1000).rounded()) }
    }

    /// Every sleep asked for, in seconds.
    var sleeps: [Double] { state.withLock { $0.sleeps } }

    func advance(_ seconds: Double) {
        state.withLock { state in
            state.milliseconds += Int64((seconds * 1000).rounded())
            state.sleeps.append(seconds)
        }
    }

    /// The recorder's clock: sleeping advances time; token buckets see the same time; retries
    /// do not wait.
    var recorder: RecorderClock {
        RecorderClock(
            now: { self.now },
            sleep: { seconds in
                self.advance(seconds)
                await Task.yield()
            },
            retry: RetryClock(
                now: { Double(self.state.withLock { $0.milliseconds }) / 1000 }, sleep: { _ in }, random: { 0.5 }))
    }
}
