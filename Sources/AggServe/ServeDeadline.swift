import AggCore
import Synchronization

/// A poll's deadline for one venue: its outcome, or a timeout once the deadline has passed.
/// Unlike a task group, the caller does not wait for the late request to wind down after it is
/// cancelled (a request waiting in a retry or a token bucket may take a while to notice): a hung
/// venue costs the poll its deadline and nothing more.
enum ServeDeadline {
    static func outcome<Value: Sendable>(
        within seconds: Double, or timeout: AggError,
        _ operation: @escaping @Sendable () async throws(AggError) -> Value
    ) async -> Result<Value, AggError> {
        let first = FirstOutcome<Value>()
        return await withCheckedContinuation { continuation in
            first.wait(continuation)
            let work = Task {
                let outcome = await Result<Value, AggError>.catching { () throws(AggError) in try await operation() }
                first.resume(outcome)
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                if first.resume(.failure(timeout)) { work.cancel() }
            }
        }
    }
}

/// Resumes a continuation with the first of several outcomes; the later ones are dropped.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Result<Value, AggError>, Never>?>(nil)

    func wait(_ continuation: CheckedContinuation<Result<Value, AggError>, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Whether `outcome` was the first.
    @discardableResult
    func resume(_ outcome: Result<Value, AggError>) -> Bool {
        guard
            let waiting = continuation.withLock({ state in
                defer { state = nil }; return state
            })
        else { return false }
        waiting.resume(returning: outcome)
        return true
    }
}
