#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Blocking socket calls with deadlines, for the server's own threads (never Swift's pool).
enum ServerSocket {
    /// What a read found.
    enum Read: Equatable {
        case bytes(Int)
        case closed
        case timedOut
    }

    /// Reads what is there into `buffer` (appending), waiting at most `seconds`.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8], seconds: Double) -> Read {
        guard wait(descriptor, events: Int16(POLLIN), seconds: seconds) else { return .timedOut }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return .closed }
        buffer += chunk[..<count]
        return .bytes(count)
    }

    /// Writes all of `bytes`, waiting at most `seconds` each time the client takes none.
    static func write(_ descriptor: Int32, _ bytes: [UInt8], seconds: Double) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(
                    descriptor, buffer.baseAddress.unsafelyUnwrapped + offset, buffer.count - offset,
                    Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EINTR || errno == EWOULDBLOCK else { return false }
            guard wait(descriptor, events: Int16(POLLOUT), seconds: seconds) else { return false }
        }
        return true
    }

    /// Whether `events` came within `seconds` (or the peer hung up, which a read then sees).
    static func wait(_ descriptor: Int32, events: Int16, seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let deadline = monotonicSeconds() + max(0, seconds)
        while true {
            let left = deadline - monotonicSeconds()
            let result = poll(&entry, 1, Int32((max(0, min(left, 3600)) * 1000).rounded(.up)))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }
        }
    }

    /// Closes after an answer without losing it: stops writing, reads and throws away what the
    /// client still sends (a body not read) for a moment, so that closing does not reset the
    /// connection before the client has read the answer.
    static func lingeringClose(_ descriptor: Int32, seconds: Double = 1, bytes: Int = 256 * 1024) {
        shutdown(descriptor, Int32(SHUT_WR))
        var discarded = 0
        var scratch: [UInt8] = []
        let deadline = monotonicSeconds() + seconds
        while discarded < bytes {
            scratch.removeAll(keepingCapacity: true)
            let left = deadline - monotonicSeconds()
            guard left > 0, case .bytes(let count) = read(descriptor, into: &scratch, seconds: left) else { break }
            discarded += count
        }
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Starts a thread running `body` (detached, or joinable when `joinable`).
///
/// The body crosses into C as a retained pointer and is taken back, once, on the new thread.
func startThread(stackSize: Int, joinable: Bool = false, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, max(stackSize, 64 * 1024))
    if !joinable { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
    let box = Unmanaged.passRetained(ThreadBody(body))
    var thread = pthread_t()
    let created = pthread_create(
        &thread, &attributes,
        { raw in
            guard let raw else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, box.toOpaque())
    guard created == 0 else {
        box.release()
        return nil
    }
    return thread
}

/// What a new thread runs.
private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
