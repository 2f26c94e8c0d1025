import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The open connections: admission against the total and per-address caps, and what a drain
/// needs (which connections are between requests, to be closed at once).
///
/// A connection's descriptor is shut down from another thread only under the lock and only
/// while the connection is listed; its own thread leaves the table before closing it, so a
/// descriptor number reused by then is never touched.
final class ConnectionTable: Sendable {
    /// Why a connection was not admitted.
    enum Refusal: Error, Equatable {
        case full(Int)
        case fullForAddress(Int)
    }

    private struct Entry {
        var descriptor: Int32
        var address: [UInt8]
        /// Waiting for the first byte of a request.
        var idle: Bool
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var perAddress: [[UInt8]: Int] = [:]
        var nextID = 0
        var draining = false
    }

    private let state = Mutex(State())
    let capacity: Int
    let perAddressCapacity: Int

    init(capacity: Int, perAddressCapacity: Int) {
        self.capacity = capacity
        self.perAddressCapacity = perAddressCapacity
    }

    /// An id for a new connection from `address`, or why not.
    func admit(_ descriptor: Int32, address: [UInt8]) -> Result<Int, Refusal> {
        state.withLock { state in
            guard state.entries.count < capacity else { return .failure(.full(capacity)) }
            let fromAddress = state.perAddress[address, default: 0]
            guard fromAddress < perAddressCapacity else { return .failure(.fullForAddress(perAddressCapacity)) }
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(descriptor: descriptor, address: address, idle: true)
            state.perAddress[address] = fromAddress + 1
            return .success(id)
        }
    }

    /// Marks the connection as waiting for a request (`idle`) or not; `false` when it should
    /// close instead (the server is draining and the connection is between requests).
    func setIdle(_ id: Int, _ idle: Bool) -> Bool {
        state.withLock { state in
            state.entries[id]?.idle = idle
            return !(idle && state.draining)
        }
    }

    /// Whether the server is draining (a connection closes after its current answer).
    var draining: Bool { state.withLock { $0.draining } }

    /// Takes the connection out (before its descriptor is closed).
    func remove(_ id: Int) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            let left = state.perAddress[entry.address, default: 1] - 1
            state.perAddress[entry.address] = left > 0 ? left : nil
        }
    }

    /// Starts draining: connections between requests, with no request bytes waiting to be read,
    /// are woken to close.
    func drain() {
        state.withLock { state in
            state.draining = true
            for entry in state.entries.values where entry.idle {
                var waiting: Int32 = 0
                if ioctl(entry.descriptor, UInt(FIONREAD), &waiting) == 0, waiting > 0 { continue }
                shutdown(entry.descriptor, Int32(SHUT_RDWR))
            }
        }
    }

    /// Cuts every connection (the drain's deadline has passed).
    func cutAll() {
        state.withLock { state in
            state.draining = true
            for entry in state.entries.values { shutdown(entry.descriptor, Int32(SHUT_RDWR)) }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Connections waiting for the first byte of a request.
    var idleCount: Int { state.withLock { $0.entries.values.filter(\.idle).count } }
}
