import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// What became of one message to one destination.
package enum NotifyOutcome: Sendable, Equatable {
    /// A 2xx answer.
    case delivered(status: Int, preview: String)
    /// A 4xx answer other than 429: the destination refused the message (a wrong chat id, a bad
    /// token); asking again would get the same answer.
    case refused(status: Int, preview: String)
    /// A 5xx or 429 on every attempt: the last answer.
    case failed(status: Int, preview: String)
    /// No answer on any attempt (a timeout, a refused connection), in words without any URL.
    case unreachable(String)

    /// The outcome in words for a line on stderr: `HTTP 400: {"ok":false,...}`.
    package var description: String {
        switch self {
        case .delivered(let status, let preview), .refused(let status, let preview), .failed(let status, let preview):
            preview.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(preview)"
        case .unreachable(let detail): detail
        }
    }
}

/// Sends one request to a destination, retrying a 5xx, a 429 and a failed connection with
/// jittered exponential backoff; a 429's wait is the destination's own (`Retry-After` in
/// seconds or as an HTTP date, or the `retry_after` a Telegram or Discord body carries) when
/// it gives one. Time and chance come from `clock`, so tests run without waiting.
package struct NotifySender: Sendable {
    package var http: any HTTPClient
    package var clock: RetryClock
    /// Four retries: 1 s, 2 s, 4 s, 8 s before jitter (half fixed, half random), each at most 60 s.
    package var policy: RetryPolicy
    /// The wall clock, for a `Retry-After` given as an HTTP date.
    package var wallClock: @Sendable () -> Date
    /// The secrets to hide in anything said about an answer.
    package var secrets: [String]

    package static let standardPolicy = RetryPolicy(maximumRetries: 4, baseDelay: 1, maximumDelay: 60)
    /// The longest wait a destination may ask for; a longer one is cut to it.
    package static let longestRetryAfter: Double = 300
    /// The most characters of an answer's body kept for a message.
    static let previewLength = 200

    package init(
        http: any HTTPClient, clock: RetryClock = .system, policy: RetryPolicy = standardPolicy,
        wallClock: @escaping @Sendable () -> Date = { Date() }, secrets: [String] = []
    ) {
        self.http = http
        self.clock = clock
        self.policy = policy
        self.wallClock = wallClock
        self.secrets = secrets
    }

    /// Sends `request` until it is answered 2xx or 4xx, or the retries are spent; a cancelled
    /// task stops at once (unreachable, "cancelled").
    package func send(_ request: HTTPRequest) async -> NotifyOutcome {
        var retry = 0
        while true {
            let outcome: NotifyOutcome
            var wait: Double?
            do {
                let response = try await http.send(request)
                let preview = self.preview(response.body)
                if response.isSuccess {
                    return .delivered(status: response.status, preview: preview)
                } else if response.status == 429 {
                    outcome = .failed(status: response.status, preview: preview)
                    wait = Self.retryAfter(response, now: wallClock())
                } else if (500...599).contains(response.status) {
                    outcome = .failed(status: response.status, preview: preview)
                } else {
                    return .refused(status: response.status, preview: preview)
                }
            } catch is CancellationError {
                return .unreachable("cancelled")
            } catch let error as TransportError {
                switch error {
                case .invalidURL, .responseTooLarge:
                    // Asking again would get the same answer.
                    return .unreachable(describe(error))
                case .timeout, .connection, .malformedResponse:
                    outcome = .unreachable(describe(error))
                }
            } catch {
                outcome = .unreachable(redact(String(describing: error)))
            }
            guard retry < policy.maximumRetries, !Task.isCancelled else { return outcome }
            retry += 1
            let delay = min(
                wait ?? policy.delay(beforeRetry: retry, unit: clock.random()), Self.longestRetryAfter)
            do {
                try await clock.sleep(delay)
            } catch {
                return outcome
            }
        }
    }

    /// The wait a 429 asks for: `Retry-After` (seconds or an HTTP date), else the body's
    /// `parameters.retry_after` (Telegram) or `retry_after` (Discord, seconds with a fraction).
    static func retryAfter(_ response: HTTPResponse, now: Date) -> Double? {
        if let seconds = RetryAfter.seconds(response.header("Retry-After"), now: now) { return seconds }
        guard case .object(let object)? = try? JSONParser.parse(response.body) else { return nil }
        var number: JSONValue?
        if case .object(let parameters)? = object["parameters"] { number = parameters["retry_after"] }
        if number == nil { number = object["retry_after"] }
        guard case .number(let text)? = number, let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            return nil
        }
        return seconds
    }

    /// A transport failure in words without its URL (which may hold a token).
    private func describe(_ error: TransportError) -> String {
        switch error {
        case .timeout(_, let seconds): "no answer within \(RateText.format(seconds)) s"
        case .connection(_, let detail): redact("connection failed: \(detail)")
        case .malformedResponse(_, let detail): redact("broken answer: \(detail)")
        case .responseTooLarge(_, let limit): "the answer is larger than \(limit) bytes"
        case .invalidURL: "invalid URL"
        }
    }

    /// The start of `body` as text, on one line, secrets hidden.
    private func preview(_ body: [UInt8]) -> String {
        var text = String(decoding: body.prefix(Self.previewLength * 4), as: UTF8.self)
        text = String(text.prefix(Self.previewLength))
        text = String(text.map { $0.isNewline ? " " : $0 })
        if body.count > text.utf8.count { text += "…" }
        return redact(text)
    }

    /// `text` with every secret replaced by `***`.
    func redact(_ text: String) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            text = text.replacing(secret, with: "***")
        }
        return text
    }
}
