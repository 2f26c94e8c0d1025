import Synchronization

/// Fans server-sent events out to a bounded number of subscribers, each with a bounded queue.
///
/// `publish` never waits for a subscriber: an event goes into each queue, and a subscriber
/// whose queue is full (a client that does not read) is dropped, so a slow client costs at most
/// `queueLimit` events of memory and never delays the others. A new subscriber gets the latest
/// event first.
public final class EventStreamHub: Sendable {
    public let maximumSubscribers: Int
    public let queueLimit: Int
    private let state: Mutex<State>

    private struct State {
        var subscribers: [ObjectIdentifier: EventSubscription] = [:]
        var latest: [UInt8]?
        var closed = false
        var dropped = 0
    }

    public init(maximumSubscribers: Int, queueLimit: Int) {
        self.maximumSubscribers = maximumSubscribers
        self.queueLimit = max(1, queueLimit)
        state = Mutex(State())
    }

    /// A new subscription, or `nil` when `maximumSubscribers` are already connected or the hub
    /// is closed.
    public func subscribe() -> EventSubscription? {
        state.withLock { state in
            guard !state.closed, state.subscribers.count < maximumSubscribers else { return nil }
            let subscription = EventSubscription(hub: self, limit: queueLimit, first: state.latest)
            state.subscribers[ObjectIdentifier(subscription)] = subscription
            return subscription
        }
    }

    /// Sends `event` (already in the wire format) to every subscriber.
    public func publish(_ event: ServerSentEvent) {
        let bytes = event.wire
        let subscribers = state.withLock { state in
            state.latest = bytes
            return Array(state.subscribers.values)
        }
        var dropped: [EventSubscription] = []
        for subscriber in subscribers where !subscriber.offer(bytes) { dropped.append(subscriber) }
        guard !dropped.isEmpty else { return }
        state.withLock { state in
            for subscriber in dropped { state.subscribers[ObjectIdentifier(subscriber)] = nil }
            state.dropped += dropped.count
        }
    }

    /// Ends every subscription (their readers return at once) and refuses new ones.
    public func close() {
        let subscribers = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.end(dropped: false) }
    }

    /// Subscribers connected now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Subscribers dropped for not reading, since the start: those whose queue filled up, and
    /// those cut off with events unread.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Removes `subscription`, counting it as dropped when it left with events it had not
    /// read (the server cut off a client that stopped reading).
    func remove(_ subscription: EventSubscription, unread: Bool) {
        state.withLock { state in
            guard state.subscribers.removeValue(forKey: ObjectIdentifier(subscription)) != nil else { return }
            if unread { state.dropped += 1 }
        }
    }
}

/// One `text/event-stream` message.
public struct ServerSentEvent: Sendable, Equatable {
    public var event: String
    public var id: String
    /// One line: a newline in it would end the field.
    public var data: String

    public init(event: String, id: String, data: String) {
        self.event = event
        self.id = id
        self.data = data
    }

    /// `event:`, `id:` and one `data:` line per line of `data`, then a blank line.
    public var wire: [UInt8] {
        var text = "event: \(event)\nid: \(id)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return Array((text + "\n").utf8)
    }
}

/// One client's queue of events, read by its connection thread.
public final class EventSubscription: Sendable {
    /// What `next` found.
    public enum Next: Sendable, Equatable {
        case event([UInt8])
        /// Nothing within the wait: the reader sends a keep-alive comment.
        case idle
        /// The stream is over: closed by the server, or dropped for not reading.
        case end(dropped: Bool)
    }

    private struct Queue {
        var events: [[UInt8]] = []
        var ended: Bool = false
        var dropped: Bool = false
    }

    private let lock = ConditionLock()
    /// Guarded by `lock`; the Mutex only makes the compiler see it is.
    private let queue: Mutex<Queue>
    private let limit: Int
    private weak let hub: EventStreamHub?

    init(hub: EventStreamHub, limit: Int, first: [UInt8]?) {
        self.hub = hub
        self.limit = limit
        queue = Mutex(Queue(events: first.map { [$0] } ?? []))
    }

    /// Queues `bytes`; `false` (and the subscription ends) when the queue is full.
    func offer(_ bytes: [UInt8]) -> Bool {
        let accepted = lock.withLock {
            queue.withLock { queue in
                guard !queue.ended else { return false }
                guard queue.events.count < limit else {
                    queue.ended = true
                    queue.dropped = true
                    queue.events = []
                    return false
                }
                queue.events.append(bytes)
                return true
            }
        }
        lock.broadcast()
        return accepted
    }

    func end(dropped: Bool) {
        lock.withLock {
            queue.withLock { queue in
                queue.ended = true
                queue.dropped = queue.dropped || dropped
            }
        }
        lock.broadcast()
    }

    /// The next event, waiting up to `seconds` for one. Called on a connection thread.
    public func next(waiting seconds: Double) -> Next {
        lock.wait(until: { queue.withLock { !$0.events.isEmpty || $0.ended } }, seconds: seconds) {
            queue.withLock { queue in
                if !queue.events.isEmpty { return .event(queue.events.removeFirst()) }
                return queue.ended ? .end(dropped: queue.dropped) : .idle
            }
        }
    }

    /// Leaves the hub (the client went away, or the server cut it off). A subscription that
    /// leaves with events still queued had stopped reading: the hub counts it as dropped, as it
    /// does one whose queue filled up, whichever of the two comes first.
    public func cancel() {
        let unread = lock.withLock { queue.withLock { !$0.ended && !$0.events.isEmpty } }
        end(dropped: false)
        hub?.remove(self, unread: unread)
    }
}
