import AggCore
import AggOptions
import Synchronization

/// How many messages one destination holds and sends.
package struct NotifyLimits: Sendable, Equatable {
    /// Messages waiting beyond this many are dropped (counted, and said once).
    package var capacity: Int
    /// At most this many sends start in any 60 seconds.
    package var perMinute: Int

    package init(capacity: Int = NotifyLimits.defaultCapacity, perMinute: Int) {
        self.capacity = capacity
        self.perMinute = perMinute
    }

    /// 100 messages waiting.
    package static let defaultCapacity = 100

    /// The default for `destination`: Telegram's 20 messages a minute to one chat (its Bot
    /// API's limit for groups), Discord's 30 a minute per webhook, 60 a minute to a webhook.
    package static func standard(for destination: NotifyDestination) -> NotifyLimits {
        switch destination.kind {
        case .telegram: NotifyLimits(perMinute: 20)
        case .discord: NotifyLimits(perMinute: 30)
        case .webhook: NotifyLimits(perMinute: 60)
        }
    }
}

/// What an outbox did, for the end of a run and for tests.
package struct NotifyCounts: Sendable, Equatable {
    /// Messages answered 2xx.
    package var delivered = 0
    /// Messages refused, or failed after every retry.
    package var failed = 0
    /// Messages dropped because the queue was full.
    package var dropped = 0
    /// Messages still waiting (or in flight) when the drain's deadline passed.
    package var abandoned = 0

    package init(delivered: Int = 0, failed: Int = 0, dropped: Int = 0, abandoned: Int = 0) {
        self.delivered = delivered
        self.failed = failed
        self.dropped = dropped
        self.abandoned = abandoned
    }
}

/// One destination's queue: `enqueue` never waits (a full queue drops the message, counts it,
/// and says so once on stderr), and one task, not a thread, sends the messages in order, at
/// most `limits.perMinute` in any 60 s, each through `NotifySender` (its retries and backoff).
/// The HTTP transport waits off the cooperative pool; the task only awaits.
package final class NotifyOutbox: Sendable {
    package let destination: NotifyDestination
    private let state: Shared
    private let wake: AsyncStream<Void>.Continuation
    private let worker: Task<Void, Never>

    /// The queue, shared by `enqueue` and the task (a class: a `Mutex` cannot be copied into
    /// the task's closure).
    private final class Shared: Sendable {
        private let mutex = Mutex(State())

        func withLock<Result>(_ body: (inout State) -> Result) -> Result {
            mutex.withLock { body(&$0) }
        }
    }

    private struct State {
        var pending: [NotifyMessage] = []
        /// Index of the next message to send in `pending`.
        var next = 0
        var inFlight = false
        var closed = false
        var overflowSaid = false
        var counts = NotifyCounts()
    }

    /// Starts the outbox's task.
    ///
    /// - Parameter report: where a line about a message that could not be sent goes (stderr).
    package init(
        destination: NotifyDestination, limits: NotifyLimits, requests: NotifyRequests, sender: NotifySender,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.destination = destination
        self.report = report
        self.capacity = limits.capacity
        let state = Shared()
        self.state = state
        let (stream, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        worker = Task {
            var sent: [Double] = []
            for await _ in stream {
                while let message = Self.take(state) {
                    // At most perMinute starts in any 60 s: wait for the oldest to leave the window.
                    sent = sent.filter { sender.clock.now() - $0 < 60 }
                    if sent.count >= limits.perMinute, let oldest = sent.first {
                        try? await sender.clock.sleep(oldest + 60 - sender.clock.now())
                        // Stopped while waiting: the message is left, counted as not sent.
                        if Task.isCancelled { return }
                        sent = sent.filter { sender.clock.now() - $0 < 60 }
                    }
                    sent.append(sender.clock.now())
                    let outcome = await sender.send(requests.request(message, to: destination))
                    let delivered: Bool
                    if case .delivered = outcome { delivered = true } else { delivered = false }
                    if !delivered, !Task.isCancelled {
                        report("agg: --notify \(destination): alert not delivered: \(outcome.description)")
                    }
                    let stopped = Task.isCancelled
                    state.withLock { state in
                        if delivered {
                            state.counts.delivered += 1
                        } else if !stopped {
                            state.counts.failed += 1
                        }
                        // A send cut short by the deadline stays in flight: counted as not sent.
                        state.inFlight = stopped && !delivered
                    }
                    if stopped { return }
                }
            }
        }
    }

    private let report: @Sendable (String) -> Void
    private let capacity: Int

    /// Queues `message` and returns at once; `false` when the queue was full (or closed) and the
    /// message was dropped.
    @discardableResult
    package func enqueue(_ message: NotifyMessage) -> Bool {
        let (queued, sayOverflow) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            guard state.pending.count - state.next < capacity else {
                state.counts.dropped += 1
                let say = !state.overflowSaid
                state.overflowSaid = true
                return (false, say)
            }
            state.pending.append(message)
            return (true, false)
        }
        if sayOverflow {
            report(
                "agg: --notify \(destination): \(capacity) alerts already waiting: dropping alerts until it catches up"
            )
        }
        if queued { wake.yield() }
        return queued
    }

    /// What the outbox did so far.
    package var counts: NotifyCounts { state.withLock { $0.counts } }

    /// Stops taking messages, and waits until every queued one is sent, or `deadline` seconds
    /// of real time have passed (not the sender's clock, which a test may run without waiting): then the sends still going are cancelled and the
    /// messages left counted as abandoned. Answers the counts.
    package func finish(deadline: Double) async -> NotifyCounts {
        state.withLock { $0.closed = true }
        wake.finish()
        let worker = self.worker
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await worker.value
                return true
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: RetryClock.nanoseconds(deadline))
                return false
            }
            let drained = await group.next() ?? true
            if !drained { worker.cancel() }
            group.cancelAll()
            await worker.value
        }
        let counts = state.withLock { state in
            state.counts.abandoned = state.pending.count - state.next + (state.inFlight ? 1 : 0)
            return state.counts
        }
        if counts.dropped > 0 {
            report("agg: --notify \(destination): \(counts.dropped) alerts dropped (queue full)")
        }
        if counts.abandoned > 0 {
            report(
                "agg: --notify \(destination): \(counts.abandoned) alerts not sent within "
                    + "\(RateText.format(deadline)) s of stopping")
        }
        return counts
    }

    /// The next message to send, marked in flight.
    private static func take(_ state: Shared) -> NotifyMessage? {
        state.withLock { state in
            guard state.next < state.pending.count else {
                state.pending.removeAll()
                state.next = 0
                return nil
            }
            let message = state.pending[state.next]
            state.next += 1
            state.inFlight = true
            return message
        }
    }
}
