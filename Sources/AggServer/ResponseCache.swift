import Synchronization

/// Answers computed once per snapshot generation and shared: concurrent identical requests
/// wait for the first one's answer instead of computing it again. 5xx answers are not kept.
///
/// At most `capacity` keys are kept per generation; past that, answers are computed without
/// being kept, so that clients varying the query cannot grow memory.
public final class ResponseCache: Sendable {
    public let capacity: Int
    private let state: Mutex<State>

    private struct State {
        var generation = -1
        var entries: [String: Entry] = [:]
    }

    /// One answer, computed by the first caller.
    private final class Entry: Sendable {
        let lock = ConditionLock()
        let value = Mutex<HTTPServerResponse?>(nil)
    }

    public init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State())
    }

    /// The answer for `key` in `generation`: computed by `compute` on the calling thread if no
    /// other caller has it or is computing it, else that caller's answer.
    public func response(key: String, generation: Int, compute: () -> HTTPServerResponse) -> HTTPServerResponse {
        let (entry, owner) = state.withLock { state -> (Entry?, Bool) in
            if state.generation != generation {
                state.generation = generation
                state.entries = [:]
            }
            if let entry = state.entries[key] { return (entry, false) }
            guard state.entries.count < capacity else { return (nil, true) }
            let entry = Entry()
            state.entries[key] = entry
            return (entry, true)
        }
        guard let entry else { return compute() }
        if owner {
            let response = compute()
            entry.lock.withLock { entry.value.withLock { $0 = response } }
            entry.lock.broadcast()
            // A failure of the server's own (a timeout) is shared with those waiting for it,
            // not kept: the next request computes again.
            if response.status >= 500 {
                state.withLock { state in
                    if state.generation == generation, state.entries[key] === entry { state.entries[key] = nil }
                }
            }
            return response
        }
        while true {
            let response = entry.lock.wait(until: { entry.value.withLock { $0 != nil } }, seconds: 60) {
                entry.value.withLock { $0 }
            }
            if let response { return response }
        }
    }
}

/// Runs async `work` on Swift's cooperative pool and waits for it on the calling thread, for up
/// to `seconds`; `nil` when it did not finish in time.
///
/// Only for threads that are not the pool's (libmicrohttpd's connection threads): waiting on a
/// pool thread for pool work could starve the pool.
public func waitForAsync<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async -> T) -> T? {
    let lock = ConditionLock()
    let result = Mutex<T?>(nil)
    Task {
        let value = await work()
        lock.withLock { result.withLock { $0 = value } }
        lock.broadcast()
    }
    return lock.wait(until: { result.withLock { $0 != nil } }, seconds: seconds) { result.withLock { $0 } }
}
