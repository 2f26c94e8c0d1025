import Dispatch
import Foundation
import Glibc
import Synchronization

/// A task executor with exactly one thread, which a test can block at will.
///
/// Blocking threads of the global cooperative pool would stall every other test running in
/// parallel; blocking this thread only stalls the tasks that prefer it.
final class SingleThreadTaskExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopping = false
        var thread: pthread_t?
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "test-single-executor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        available.signal()
    }

    /// Ends the thread once the jobs already queued have run.
    func stop() {
        state.withLock { $0.stopping = true }
        available.signal()
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrent: Bool {
        state.withLock { $0.thread } == pthread_self()
    }

    private func run() {
        state.withLock { $0.thread = pthread_self() }
        while true {
            available.wait()
            let next = state.withLock { state -> (job: UnownedJob?, stop: Bool) in
                state.jobs.isEmpty ? (nil, state.stopping) : (state.jobs.removeFirst(), false)
            }
            if let job = next.job { job.runSynchronously(on: asUnownedTaskExecutor()) }
            if next.stop { return }
        }
    }
}
