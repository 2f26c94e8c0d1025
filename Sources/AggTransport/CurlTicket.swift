import AggCore
import Synchronization

/// One call of `send`: the request and the continuation its caller awaits.
///
/// The ticket is the only place that holds the continuation. Whoever resumes it first takes it
/// out under the lock, so it is resumed exactly once whatever the order in which the worker
/// finishes the transfer and the caller's task is cancelled.
final class CurlTicket: Sendable {
    private enum State {
        /// `send` has not handed over its continuation yet.
        case created
        /// The caller is waiting; `cancelled` records a cancellation the worker has not seen.
        case waiting(CheckedContinuation<HTTPResponse, any Error>, cancelled: Bool)
        /// The task was cancelled before the continuation existed.
        case cancelledBeforeStart
        /// The continuation has been resumed.
        case finished
    }

    /// What to fetch.
    let request: HTTPRequest
    private let state = Mutex(State.created)

    init(request: HTTPRequest) {
        self.request = request
    }

    /// Stores the caller's continuation.
    ///
    /// - Returns: `false` when the task was cancelled already; the continuation has then been
    ///   resumed with `CancellationError` and the ticket must not be submitted.
    func install(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            switch state {
            case .created:
                state = .waiting(continuation, cancelled: false)
                return false
            case .cancelledBeforeStart:
                state = .finished
                return true
            case .waiting, .finished:
                preconditionFailure("a ticket's continuation is installed once")
            }
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Records that the caller's task was cancelled.
    ///
    /// - Returns: whether the worker must be told, because the ticket may be in its hands.
    func cancel() -> Bool {
        state.withLock { state -> Bool in
            switch state {
            case .created:
                state = .cancelledBeforeStart
                return false
            case .waiting(let continuation, cancelled: false):
                state = .waiting(continuation, cancelled: true)
                return true
            case .waiting, .cancelledBeforeStart, .finished:
                return false
            }
        }
    }

    /// Whether the caller still waits for an answer: not resumed yet, and not cancelled.
    var isAwaitingAnswer: Bool {
        state.withLock { state in
            if case .waiting(_, cancelled: false) = state { true } else { false }
        }
    }

    /// Resumes the caller with `outcome`, or with `CancellationError` when its task was cancelled
    /// meanwhile. Does nothing when the caller has been resumed already.
    func finish(_ outcome: Result<HTTPResponse, any Error>) {
        let taken = state.withLock { state -> (CheckedContinuation<HTTPResponse, any Error>, Bool)? in
            guard case .waiting(let continuation, let cancelled) = state else { return nil }
            state = .finished
            return (continuation, cancelled)
        }
        guard let (continuation, cancelled) = taken else { return }
        if cancelled {
            continuation.resume(throwing: CancellationError())
        } else {
            continuation.resume(with: outcome)
        }
    }
}
