#if canImport(Glibc)
    import Glibc
#endif

/// A mutex with a condition variable, for the server's connection threads to wait on (the
/// event-stream reader waits for the next event there, off Swift's cooperative pool).
///
/// `@unchecked Sendable` at the pthread (C) boundary: the mutex and condition live in memory
/// allocated once and never moved, and every access to them goes through pthread calls, which
/// are made for use from many threads; they are destroyed in `deinit`, when no thread can
/// hold a reference any more.
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Holding the lock: waits until `ready()` or `seconds` have passed, then runs `body` with
    /// the lock still held.
    func wait<T>(until ready: () -> Bool, seconds: Double, then body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = Int(seconds)
        deadline.tv_sec += whole
        deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        while !ready() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return body()
    }

    /// Wakes every waiter (call after changing what `ready` reads, under the lock or not).
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
