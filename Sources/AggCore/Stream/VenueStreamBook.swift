import Synchronization

/// The states of a venue's stream connections, and the one place their events are emitted:
/// every transition and its event happen under one lock, so a fallback to polling cannot be
/// reported after the connection it concerns went live again.
final class VenueStreamBook: Sendable {
    /// One connection's state.
    struct Connection {
        /// Whether the connection has been live once.
        var everLive = false
        var live = false
        /// Which outage the connection is in (0: the start, before the first live stream).
        var outage = 0
        var downReported = false
        var polling = false
    }

    private struct State {
        var connections: [Connection]
        var malformed = 0
    }

    private let state: Mutex<State>
    private let continuation: AsyncStream<VenueStreamEvent>.Continuation

    init(connections: Int, continuation: AsyncStream<VenueStreamEvent>.Continuation) {
        state = Mutex(State(connections: Array(repeating: Connection(), count: connections)))
        self.continuation = continuation
    }

    /// Attempt `attempt` of connection `index` begins.
    func connecting(_ index: Int, attempt: Int, waited: Duration) {
        state.withLock { _ in
            _ = continuation.yield(.state(connection: index, .connecting(attempt: attempt, waited: waited)))
        }
    }

    /// The venue sent a message after the subscription: live, or live again.
    func delivered(_ index: Int) {
        state.withLock { state in
            guard !state.connections[index].live else { return }
            let wasLive = state.connections[index].everLive
            state.connections[index].live = true
            state.connections[index].everLive = true
            state.connections[index].polling = false
            _ = continuation.yield(.state(connection: index, wasLive ? .resubscribed : .live))
        }
    }

    /// Connection `index` failed with `fault`. Returns the new outage's number when the
    /// connection was live (an outage begins), `nil` when it continues one.
    func failed(_ index: Int, _ fault: StreamFault) -> Int? {
        state.withLock { state in
            var begins: Int?
            if state.connections[index].live {
                state.connections[index].live = false
                state.connections[index].outage += 1
                state.connections[index].downReported = false
                state.connections[index].polling = false
                begins = state.connections[index].outage
            }
            if !state.connections[index].downReported {
                state.connections[index].downReported = true
                _ = continuation.yield(.state(connection: index, .down(fault)))
            }
            return begins
        }
    }

    /// The fallback time of outage `outage` has passed: polling, unless the connection is live
    /// again or already said so.
    func fallBack(_ index: Int, outage: Int) {
        state.withLock { state in
            let connection = state.connections[index]
            guard !connection.live, connection.outage == outage, !connection.polling else { return }
            state.connections[index].polling = true
            _ = continuation.yield(.state(connection: index, .polling))
        }
    }

    /// Quotes from a message.
    func quotes(_ index: Int, _ quotes: [Quote], skipped: [SkippedEntry]) {
        continuation.yield(.quotes(connection: index, quotes, skipped: skipped))
    }

    /// A malformed message: counted, reported, and nothing else.
    func malformed(_ index: Int, reason: String) {
        state.withLock { state in
            state.malformed += 1
            _ = continuation.yield(.malformed(connection: index, reason: reason, total: state.malformed))
        }
    }
}
