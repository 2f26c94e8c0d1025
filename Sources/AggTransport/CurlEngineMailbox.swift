import Synchronization

/// The hand-over point between the callers of `send` and the engine thread.
///
/// Callers post tickets and cancellations here and wake the engine; the engine takes them out at
/// the top of each turn of its loop. Nothing here calls out to other code while holding the
/// lock.
final class CurlEngineMailbox: Sendable {
    /// What the engine takes out in one turn.
    struct Work {
        var submitted: [CurlTicket] = []
        var cancelled: [CurlTicket] = []
        var shutdownRequested = false
    }

    private struct State {
        var work = Work()
        var workerRunning = true
    }

    /// The multi handle the engine drives; shared so that callers can wake it.
    let multi: CurlMultiHandle
    private let state = Mutex(State())
    private let liveTransfers = Atomic<Int>(0)

    init(multi: CurlMultiHandle) {
        self.multi = multi
    }

    /// Hands `ticket` to the engine, or fails it when the engine is shutting down.
    func submit(_ ticket: CurlTicket) {
        let accepted = state.withLock { state -> Bool in
            guard !state.work.shutdownRequested else { return false }
            state.work.submitted.append(ticket)
            return true
        }
        if accepted {
            multi.wakeUp()
        } else {
            ticket.finish(.failure(CurlMultiEngine.shutDownError(url: ticket.request.url)))
        }
    }

    /// Tells the engine that `ticket`'s caller was cancelled.
    func cancel(_ ticket: CurlTicket) {
        state.withLock { $0.work.cancelled.append(ticket) }
        multi.wakeUp()
    }

    /// Asks the engine thread to fail what is left and exit.
    func requestShutdown() {
        state.withLock { $0.work.shutdownRequested = true }
        multi.wakeUp()
    }

    /// Takes everything posted since the last call (the shutdown flag stays set).
    func takeWork() -> Work {
        state.withLock { state in
            let work = state.work
            state.work.submitted = []
            state.work.cancelled = []
            return work
        }
    }

    /// Called by the engine thread as its last action.
    func markWorkerFinished() {
        state.withLock { $0.workerRunning = false }
    }

    /// Whether the engine thread is still running.
    var isWorkerRunning: Bool {
        state.withLock { $0.workerRunning }
    }

    /// Counts easy handles: one more when a transfer is created, one fewer when it is freed.
    func transferCreated() {
        liveTransfers.add(1, ordering: .relaxed)
    }

    /// See `transferCreated()`.
    func transferFreed() {
        liveTransfers.subtract(1, ordering: .relaxed)
    }

    /// The number of easy handles that exist right now.
    var liveTransferCount: Int {
        liveTransfers.load(ordering: .relaxed)
    }
}
