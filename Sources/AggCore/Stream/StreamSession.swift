import Synchronization

/// One open connection of a venue's stream, from the handshake to its end: it sends the
/// subscription, the keep-alives and the replies within the venue's message quota, reads every
/// message through the codec, and notices silence (no message and no pong past the limit). `run` returns the fault that ended it, or
/// `nil` when the task was cancelled.
struct StreamSession: Sendable {
    let index: Int
    let connection: any StreamConnection
    let codec: any TickerStreamCodec
    let subscription: [StreamMessage]
    let keepAlive: StreamKeepAlive
    let silenceLimit: Duration
    let messagesPerSecond: Int
    let clock: any StreamClock
    let book: VenueStreamBook

    /// One thing to send.
    private enum Outgoing: Sendable {
        case reply(StreamMessage)
        case keepAlive
        case subscribe(StreamMessage)
    }

    func run() async -> StreamFault? {
        let opened = clock.now
        let shared = SessionShared(
            SessionShared.State(
                subscription: subscription[...], subscribing: !subscription.isEmpty, lastReceived: opened))
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        defer { wake.finish() }
        return await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await read(shared, wake: wake) }
            group.addTask { try await write(shared, wakeups: wakeups) }
            group.addTask { try await watch(shared, wake: wake, opened: opened) }
            group.addTask { await listen(shared) }
            var fault: StreamFault?
            while true {
                do {
                    guard try await group.next() != nil else { break }
                } catch let ended as StreamFault {
                    if fault == nil { fault = ended }
                    group.cancelAll()
                } catch {
                    group.cancelAll()
                }
            }
            return fault
        }
    }

    /// Reads every message through the codec until the connection ends.
    private func read(_ shared: SessionShared, wake: AsyncStream<Void>.Continuation) async throws {
        do {
            for try await message in connection.messages {
                let now = clock.now
                let subscribed = shared.withLock { state in
                    state.lastReceived = now
                    return !state.subscribing || state.subscription.count < subscription.count
                }
                switch codec.read(message, receivedAt: clock.wallTime) {
                case .quotes(let quotes, let skipped):
                    if subscribed { book.delivered(index) }
                    book.quotes(index, quotes, skipped: skipped)
                case .control:
                    if subscribed { book.delivered(index) }
                case .reply(let answer):
                    shared.withLock { $0.replies.append(answer) }
                    wake.yield()
                    if subscribed { book.delivered(index) }
                case .refused(let code, let text):
                    throw StreamFault.refused(code: code, message: text)
                case .malformed(let reason):
                    book.malformed(index, reason: reason)
                }
            }
        } catch let fault as StreamFault {
            throw fault
        } catch is CancellationError {
            return
        } catch {
            throw StreamFault.unreachable("\(error)")
        }
        // The messages end without an error only after a close of ours or a cancellation.
        guard Task.isCancelled else { throw StreamFault.dropped }
    }

    /// Counts every pong as life (`lastReceived`), as a message is: the venue answered a ping,
    /// so a quiet market is not a stall.
    private func listen(_ shared: SessionShared) async {
        for await _ in connection.pongs {
            let now = clock.now
            shared.withLock { $0.lastReceived = max($0.lastReceived, now) }
        }
    }

    /// Sends the first subscribe message before anything else (so it leaves with the
    /// handshake, well within the venue's `subscribeWithin`), then replies first, keep-alives,
    /// and the rest of the subscription, at most `messagesPerSecond` in any second.
    private func write(_ shared: SessionShared, wakeups: AsyncStream<Void>) async throws {
        var pacer = SlidingWindowPacer(limit: messagesPerSecond, window: .seconds(1))
        var wakeupIterator = wakeups.makeAsyncIterator()
        while !Task.isCancelled {
            let pending: Bool = shared.withLock { state in
                !state.replies.isEmpty || state.keepAliveDue || !state.subscription.isEmpty
            }
            guard pending else {
                guard await wakeupIterator.next() != nil else { return }
                continue
            }
            let now = clock.now
            let slot = pacer.nextSlot(from: now)
            if slot > now {
                try await clock.sleep(until: slot)
                continue
            }
            let total = subscription.count
            let next: Outgoing? = shared.withLock { state in
                if state.subscription.count == total, let first = state.subscription.popFirst() {
                    return .subscribe(first)
                }
                if !state.replies.isEmpty { return .reply(state.replies.removeFirst()) }
                if state.keepAliveDue {
                    state.keepAliveDue = false
                    return .keepAlive
                }
                if let message = state.subscription.popFirst() { return .subscribe(message) }
                return nil
            }
            switch next {
            case .reply(let message), .subscribe(let message): connection.send(message)
            case .keepAlive:
                switch keepAlive {
                case .pingFrame: connection.ping()
                case .message(let message, _): connection.send(message)
                case .none: continue
                }
            case nil: continue
            }
            pacer.record(now)
        }
    }

    /// Marks keep-alives due on time and ends the session when the venue has been silent past
    /// the silence limit.
    private func watch(_ shared: SessionShared, wake: AsyncStream<Void>.Continuation, opened: Duration) async throws {
        let interval = keepAlive.interval.flatMap { $0 > .zero ? $0 : nil }
        var nextKeepAlive = interval.map { opened + $0 }
        while true {
            let stallAt = shared.withLock { $0.lastReceived } + silenceLimit
            let now = clock.now
            if now >= stallAt { throw StreamFault.stalled(silence: silenceLimit) }
            if let due = nextKeepAlive, let interval, now >= due {
                shared.withLock { $0.keepAliveDue = true }
                wake.yield()
                nextKeepAlive = due + interval
                continue
            }
            try await clock.sleep(until: min(stallAt, nextKeepAlive ?? stallAt))
        }
    }
}

/// What a session's writer has to send, and when the venue last spoke, shared by the session's
/// tasks.
final class SessionShared: Sendable {
    struct State {
        var replies: [StreamMessage] = []
        var keepAliveDue = false
        /// The subscribe messages not sent yet.
        var subscription: ArraySlice<StreamMessage>
        /// Whether the connection has subscribe messages at all.
        var subscribing: Bool
        var lastReceived: Duration
    }

    private let state: Mutex<State>

    init(_ state: State) {
        self.state = Mutex(state)
    }

    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
