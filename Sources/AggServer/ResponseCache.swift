import Synchronization

/// Answers computed once per snapshot generation and shared: concurrent identical requests
/// wait for the first one's answer instead of computing it again. 5xx answers are not kept.
///
/// Memory is bounded by bytes, not only by keys: at most `maximumBytes` of bodies (and keys) are
/// kept, the least recently used answers leaving first, and an answer larger than a quarter of
/// that is shared with those waiting for it but not kept. At most `capacity` keys are kept; past
/// that, answers are computed without being kept, so that clients varying the query cannot grow
/// memory.
public final class ResponseCache: Sendable {
    public let capacity: Int
    public let maximumBytes: Int
    private let state: Mutex<State>

    private struct Slot {
        var entry: Entry
        /// Bytes of the key and the body once computed; 0 while computing.
        var bytes: Int
        var lastUse: UInt64
    }

    private struct State {
        var generation = -1
        var slots: [String: Slot] = [:]
        var bytes = 0
        var uses: UInt64 = 0

        mutating func clear() {
            slots = [:]
            bytes = 0
        }

        /// Removes least recently used computed answers until at most `limit` bytes are kept.
        mutating func evict(downTo limit: Int) {
            while bytes > limit {
                guard let oldest = slots.filter({ $0.value.bytes > 0 }).min(by: { $0.value.lastUse < $1.value.lastUse })
                else { return }
                bytes -= oldest.value.bytes
                slots[oldest.key] = nil
            }
        }
    }

    /// One answer, computed by the first caller.
    private final class Entry: Sendable {
        let lock = ConditionLock()
        let value = Mutex<HTTPServerResponse?>(nil)
    }

    public init(capacity: Int, maximumBytes: Int = 32 * 1024 * 1024) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        state = Mutex(State())
    }

    /// Bytes of the answers kept now.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// Answers kept now (and being computed).
    public var count: Int { state.withLock { $0.slots.count } }

    /// The answer for `key` in `generation`: computed by `compute` on the calling thread if no
    /// other caller has it or is computing it, else that caller's answer.
    public func response(key: String, generation: Int, compute: () -> HTTPServerResponse) -> HTTPServerResponse {
        let (entry, owner) = state.withLock { state -> (Entry?, Bool) in
            if state.generation != generation {
                state.generation = generation
                state.clear()
            }
            state.uses += 1
            if let slot = state.slots[key] {
                state.slots[key]?.lastUse = state.uses
                return (slot.entry, false)
            }
            guard state.slots.count < capacity else { return (nil, true) }
            let entry = Entry()
            state.slots[key] = Slot(entry: entry, bytes: 0, lastUse: state.uses)
            return (entry, true)
        }
        guard let entry else { return compute() }
        if owner {
            let response = compute()
            entry.lock.withLock { entry.value.withLock { $0 = response } }
            entry.lock.broadcast()
            let size = key.utf8.count + Self.size(of: response)
            state.withLock { state in
                guard state.generation == generation, state.slots[key]?.entry === entry else { return }
                // A failure of the server's own (a timeout, a full queue) is shared with those
                // waiting for it, not kept: the next request computes again. So is an answer
                // too large to keep.
                guard response.status < 500, size <= maximumBytes / 4 else {
                    state.slots[key] = nil
                    return
                }
                state.slots[key]?.bytes = size
                state.bytes += size
                state.evict(downTo: maximumBytes)
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

    private static func size(of response: HTTPServerResponse) -> Int {
        let headers = response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        switch response.body {
        case .bytes(let bytes): return bytes.count + headers + 64
        case .events: return headers + 64
        }
    }
}

/// Runs async `work` on Swift's cooperative pool and waits for it on the calling thread, for up
/// to `seconds`; `nil` when it did not finish in time.
///
/// Only for threads that are not the pool's (the server's connection threads): waiting on a
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
