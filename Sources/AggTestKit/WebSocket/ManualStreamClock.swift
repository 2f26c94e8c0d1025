import AggCore
import Dispatch
import Synchronization

/// A clock the test moves by hand: sleepers wait until `advance(to:)` passes their deadline, so
/// backoff, keep-alive, silence and fallback times are exact whatever the machine's load.
public final class ManualStreamClock: StreamClock {
    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
    }

    /// The wall time at `now == 0`: 2023-11-14T22:13:20Z.
    public static let epoch: Int64 = 1_700_000_000_000

    private let state = Mutex(State())

    /// A clock at zero.
    public init() {}

    public var now: Duration { state.withLock { $0.now } }

    public var wallTime: Timestamp {
        Timestamp(millisecondsSince1970: Self.epoch + Self.milliseconds(now))
    }

    /// The deadlines of the sleepers waiting now, ascending.
    public var deadlines: [Duration] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    public func sleep(until deadline: Duration) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves `now` to `time` and wakes every sleeper whose deadline has come.
    public func advance(to time: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, time)
            let ids = state.sleepers.filter { $0.value.deadline <= state.now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (real time, at most `seconds`) until a sleeper waits for exactly `deadline`.
    public func waitForSleeper(at deadline: Duration, within seconds: Double = 20) async -> Bool {
        await RealTime.poll(within: seconds) { self.deadlines.contains(deadline) }
    }

    /// Waits for a sleeper at exactly `deadline`, then advances to it; false when none came.
    public func advanceToSleeper(at deadline: Duration) async -> Bool {
        guard await waitForSleeper(at: deadline) else { return false }
        advance(to: deadline)
        return true
    }

    public static func milliseconds(_ duration: Duration) -> Int64 { duration.wholeMilliseconds }
}

/// Real-time polling for conditions that depend on sockets and threads.
public enum RealTime {
    /// Checks `condition` every 2 ms for at most `seconds`; returns whether it held.
    public static func poll(within seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while !condition() {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
