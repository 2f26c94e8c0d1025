import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When and how often to try a request again.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt.
    public var maximumRetries: Int
    /// The wait before the first retry; each later retry waits twice as long.
    public var baseDelay: Double
    /// No single wait is longer than this.
    public var maximumDelay: Double

    /// Two retries, 250 ms then 500 ms, each with full jitter.
    public static let standard = RetryPolicy(maximumRetries: 2, baseDelay: 0.25, maximumDelay: 2)

    public init(maximumRetries: Int, baseDelay: Double, maximumDelay: Double) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before retry number `retry` (1-based): exponential backoff with jitter, where
    /// `unit` is a random number in 0..<1. Half the delay is fixed and half random, so retries
    /// from many clients spread out but none comes back at once.
    public func delay(beforeRetry retry: Int, unit: Double) -> Double {
        let exponential = min(maximumDelay, baseDelay * Double(1 << min(30, max(0, retry - 1))))
        return exponential / 2 + exponential / 2 * unit
    }
}

/// Retries idempotent GETs on connection failures, broken answers and 5xx, inside one time
/// budget: every attempt gets only the time that is left, so `--timeout` bounds the whole
/// exchange. A 429 (or Upbit's 418) is retried only when the venue's `Retry-After` fits the
/// budget; otherwise the answer is returned at once for the caller to report. 4xx answers and
/// bodies over the transport's size cap are never retried.
public struct RetryingHTTPClient: HTTPClient {
    public let base: any HTTPClient
    public let policy: RetryPolicy
    /// The budget when a request carries none of its own.
    public let timeouts: HTTPTimeouts
    private let clock: RetryClock

    public init(
        base: any HTTPClient, policy: RetryPolicy = .standard, timeouts: HTTPTimeouts, clock: RetryClock = .system
    ) {
        self.base = base
        self.policy = policy
        self.timeouts = timeouts
        self.clock = clock
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let budget = request.timeouts ?? timeouts
        let deadline = clock.now() + budget.total
        var retry = 0
        // The venue's last answer (a 5xx): when the budget runs out in a later attempt or before
        // it, this answer stands rather than a timeout, so the venue's own error is reported.
        var lastAnswer: HTTPResponse?
        while true {
            let remaining = deadline - clock.now()
            guard remaining > 0 else {
                if let lastAnswer { return lastAnswer }
                throw TransportError.timeout(url: request.url, seconds: budget.total)
            }
            var attempt = request
            attempt.timeouts = HTTPTimeouts(connect: min(budget.connect, remaining), total: remaining)
            let wait: Double
            do {
                let response = try await base.send(attempt)
                guard retry < policy.maximumRetries else { return response }
                if response.status == 429 || response.status == 418 {
                    let now = Date()
                    guard
                        let retryAfter = RetryAfter.seconds(response.header("Retry-After"), now: now),
                        retryAfter < deadline - clock.now()
                    else { return response }
                    wait = retryAfter
                } else if (500...599).contains(response.status) {
                    lastAnswer = response
                    wait = policy.delay(beforeRetry: retry + 1, unit: clock.random())
                } else {
                    return response
                }
            } catch let error as TransportError {
                switch error {
                case .timeout:
                    if let lastAnswer { return lastAnswer }
                    throw TransportError.timeout(url: request.url, seconds: budget.total)
                case .invalidURL, .responseTooLarge:
                    // Asking again would give the same answer.
                    throw error
                case .connection, .malformedResponse:
                    guard retry < policy.maximumRetries else { throw error }
                    wait = policy.delay(beforeRetry: retry + 1, unit: clock.random())
                }
            }
            // A wait that would leave no time for the next attempt is not worth taking: the
            // last answer (or error) stands.
            guard wait < deadline - clock.now() else {
                return try await finalAttempt(attempt, budget: budget, deadline: deadline, lastAnswer: lastAnswer)
            }
            try await clock.sleep(wait)
            retry += 1
        }
    }

    /// One more try with whatever time is left, used when a backoff no longer fits; when that
    /// is too little or the try times out, the venue's last answer stands if it gave one.
    private func finalAttempt(
        _ request: HTTPRequest, budget: HTTPTimeouts, deadline: Double, lastAnswer: HTTPResponse?
    ) async throws -> HTTPResponse {
        let remaining = deadline - clock.now()
        guard remaining > 0.05 else {
            if let lastAnswer { return lastAnswer }
            throw TransportError.timeout(url: request.url, seconds: budget.total)
        }
        var attempt = request
        attempt.timeouts = HTTPTimeouts(connect: min(budget.connect, remaining), total: remaining)
        do {
            return try await base.send(attempt)
        } catch TransportError.timeout {
            if let lastAnswer { return lastAnswer }
            throw TransportError.timeout(url: request.url, seconds: budget.total)
        }
    }
}

/// Time and chance for retries, injectable so tests run fast and deterministically.
public struct RetryClock: Sendable {
    /// Monotonic seconds.
    public var now: @Sendable () -> Double
    public var sleep: @Sendable (Double) async throws -> Void
    /// A number in 0..<1.
    public var random: @Sendable () -> Double

    public init(
        now: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (Double) async throws -> Void,
        random: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.random = random
    }

    /// The real clock.
    public static let system = RetryClock(
        now: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
        sleep: { seconds in try await Task.sleep(nanoseconds: nanoseconds(seconds)) },
        random: { Double.random(in: 0..<1) }
    )

    /// The longest single sleep, in seconds (a year): longer waits are cut to it.
    public static let longestSleep = 365.0 * 86_400

    /// `seconds` as nanoseconds for `Task.sleep`, clamped to `0...longestSleep` (NaN is 0), so
    /// that no wait, however computed, traps in the conversion to an integer.
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds, longestSleep) * 1e9)
    }
}

/// The `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// Seconds to wait, or `nil` when the header is absent or unreadable.
    public static func seconds(_ header: String?, now: Date) -> Double? {
        guard let text = header.map(ASCIIText.trimmed), !text.isEmpty else { return nil }
        if let seconds = Int(text) { return seconds >= 0 ? Double(seconds) : nil }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form HTTP requires senders to use.
    static func httpDate(_ text: String) -> Date? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT",
            let day = Int(fields[1]), let monthIndex = months.firstIndex(of: String(fields[2])),
            let year = Int(fields[3])
        else { return nil }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3,
            let instant = Timestamp(
                civil: CivilTime(
                    year: year, month: monthIndex + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2]),
                offsetSeconds: 0)
        else { return nil }
        return Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
    }
}

/// Small text helpers that need no locale.
public enum ASCIIText {
    /// `text` without leading and trailing spaces and tabs.
    public static func trimmed(_ text: String) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// Whether `byte` is JSON white space: space, tab, line feed or carriage return.
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
