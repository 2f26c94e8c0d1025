import FoundationEssentials
import Synchronization

/// A token bucket: requests take a token each; tokens refill at `rate` per second up to
/// `capacity`. A request that finds the bucket empty waits for its token instead of failing,
/// so bursts from `watch` or bulk commands never exceed what the venue allows.
public final class TokenBucket: Sendable {
    public let rate: Double
    public let capacity: Double
    private let state: Mutex<(tokens: Double, updated: Double)>
    private let clock: RetryClock

    public init(rate: Double, capacity: Double? = nil, clock: RetryClock = .system) {
        self.rate = max(rate, 0.001)
        self.capacity = max(1, capacity ?? rate)
        self.clock = clock
        self.state = Mutex((tokens: max(1, capacity ?? rate), updated: clock.now()))
    }

    /// Takes a token, waiting as long as it takes one to refill.
    public func acquire() async throws {
        let wait = reserve()
        if wait > 0 { try await clock.sleep(wait) }
    }

    /// Takes a token now (possibly going into debt) and returns how long to wait before using it.
    func reserve() -> Double {
        state.withLock { state in
            let now = clock.now()
            state.tokens = min(capacity, state.tokens + (now - state.updated) * rate)
            state.updated = now
            state.tokens -= 1
            return state.tokens >= 0 ? 0 : -state.tokens / rate
        }
    }

    /// Empties the bucket until `seconds` from now, when a venue says its quota is spent
    /// (Upbit's `Remaining-Req: ...; sec=0`).
    public func pause(for seconds: Double) {
        state.withLock { state in
            let now = clock.now()
            state.tokens = min(state.tokens, -seconds * rate)
            state.updated = now
        }
    }
}

/// Sends requests through a venue's token bucket, and pauses the bucket when the venue's
/// answer says its quota is spent (the venue's `AdapterDescriptor.quotaHeader`).
public struct RateLimitedHTTPClient: HTTPClient {
    public let base: any HTTPClient
    public let bucket: TokenBucket
    /// The header in which the venue reports its remaining quota, if any.
    public let quotaHeader: QuotaHeader?

    public init(base: any HTTPClient, bucket: TokenBucket, quotaHeader: QuotaHeader? = nil) {
        self.base = base
        self.bucket = bucket
        self.quotaHeader = quotaHeader
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await bucket.acquire()
        let response = try await base.send(request)
        if let pause = quotaHeader?.pause(after: response), pause > 0 { bucket.pause(for: pause) }
        return response
    }
}
