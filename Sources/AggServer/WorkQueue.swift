import Synchronization

/// Bounds expensive work started by clients: at most `slots` pieces run at once, at most
/// `waitingLimit` more wait for a slot (each on its own connection thread), and a client beyond
/// those is turned away at once (503 with `Retry-After`), so that a flood of expensive requests
/// costs a bounded amount of memory and CPU and never takes the threads of cheap routes.
///
/// A slot is held until the work ends, not until its client stops waiting: work that outlives
/// its client's deadline still counts, so abandoned work cannot pile up.
public final class WorkQueue: Sendable {
    /// Pieces of work running at once, at most.
    public let slots: Int
    /// Clients waiting for a slot, at most.
    public let waitingLimit: Int
    private let lock = ConditionLock()
    /// Guarded by `lock`; the Mutex only makes the compiler see it is.
    private let state = Mutex(State())

    private struct State {
        var running = 0
        var waiting = 0
        var rejected = 0
        /// Work ended since the queue was last idle.
        var endedSinceIdle = 0
    }

    /// Why a client got no slot.
    public enum Refusal: Error, Sendable, Equatable {
        /// `slots` run and `waitingLimit` wait already.
        case full
        /// No slot came free within the wait.
        case timedOut
    }

    /// `idle` is called (off the lock) each time the last running piece ends after a burst of at
    /// least `burst` pieces: the place to give memory back to the system.
    public init(slots: Int, waitingLimit: Int, burst: Int = 8, idle: @escaping @Sendable () -> Void = {}) {
        self.slots = max(1, slots)
        self.waitingLimit = max(0, waitingLimit)
        self.burst = burst
        self.idle = idle
    }

    private let burst: Int
    private let idle: @Sendable () -> Void

    /// Takes a slot, waiting up to `seconds` for one; every slot taken must be given back with
    /// `leave()` when the work ends.
    public func enter(waiting seconds: Double) -> Result<Void, Refusal> {
        let admitted: Bool? = lock.withLock {
            state.withLock { state in
                if state.running < slots {
                    state.running += 1
                    return true
                }
                guard state.waiting < waitingLimit else {
                    state.rejected += 1
                    return false
                }
                state.waiting += 1
                return nil
            }
        }
        if let admitted { return admitted ? .success(()) : .failure(.full) }
        return lock.wait(until: { state.withLock { $0.running < slots } }, seconds: seconds) {
            state.withLock { state in
                state.waiting -= 1
                guard state.running < slots else {
                    state.rejected += 1
                    return .failure(.timedOut)
                }
                state.running += 1
                return .success(())
            }
        }
    }

    /// Gives a slot back.
    public func leave() {
        let nowIdle = lock.withLock {
            state.withLock { state in
                state.running -= 1
                state.endedSinceIdle += 1
                guard state.running == 0, state.waiting == 0, state.endedSinceIdle >= burst else { return false }
                state.endedSinceIdle = 0
                return true
            }
        }
        lock.broadcast()
        if nowIdle { idle() }
    }

    /// Work running now.
    public var running: Int { lock.withLock { state.withLock { $0.running } } }

    /// Clients waiting for a slot now.
    public var waiting: Int { lock.withLock { state.withLock { $0.waiting } } }

    /// Clients turned away since the start (queue full, or no slot within their wait).
    public var rejected: Int { lock.withLock { state.withLock { $0.rejected } } }
}
