import FoundationEssentials
import Synchronization

/// A token bucket: requests take a token each; tokens refill at `rate` per second up to
/// `capacity`. A request that finds the bucket empty waits for its token, so bursts from `watch`
/// or bulk commands never exceed what the venue allows; but never past its own deadline
/// (`acquire(within:)`): a request whose token would come too late fails at once instead.
///
/// The rate is clamped into `RequestRate.minimum...RequestRate.maximum` and every wait is a
/// `Double` handed to the clock, which clamps it (`RetryClock.nanoseconds`): no rate and no
/// venue pause can make the arithmetic trap.
public final class TokenBucket: Sendable {
    public let rate: Double
    public let capacity: Double
    private let state: Mutex<(tokens: Double, updated: Double)>
    private let clock: RetryClock

    public init(rate: Double, capacity: Double? = nil, clock: RetryClock = .system) {
        let rate = RequestRate.clamped(rate)
        let capacity = max(1, RequestRate.clamped(capacity ?? rate))
        self.rate = rate
        self.capacity = capacity
        self.clock = clock
        self.state = Mutex((tokens: capacity, updated: clock.now()))
    }

    /// Takes a token, waiting as long as it takes one to refill.
    public func acquire() async throws {
        _ = try await acquire(within: .infinity)
    }

    /// Takes a token if one comes before `seconds` have passed, waiting for it, and answers the
    /// wait; `nil`, at once and without taking a token, when it would come at `seconds` or later
    /// (a token at a request's deadline would leave it no time to ask).
    public func acquire(within seconds: Double) async throws -> Double? {
        guard let wait = reserve(within: seconds) else { return nil }
        if wait > 0 { try await clock.sleep(wait) }
        return wait
    }

    /// Takes a token now (possibly going into debt) and answers how long to wait before using
    /// it; `nil`, taking nothing, when that wait would not end before `limit`.
    func reserve(within limit: Double) -> Double? {
        state.withLock { state in
            let now = clock.now()
            state.tokens = min(capacity, state.tokens + max(0, now - state.updated) * rate)
            state.updated = now
            let wait = state.tokens >= 1 ? 0 : (1 - state.tokens) / rate
            guard wait == 0 || wait < limit else { return nil }
            state.tokens -= 1
            return wait
        }
    }

    /// Empties the bucket until `seconds` from now, when a venue says its quota is spent
    /// (Upbit's `Remaining-Req: ...; sec=0`).
    public func pause(for seconds: Double) {
        guard seconds > 0 else { return }
        state.withLock { state in
            let now = clock.now()
            state.tokens = min(state.tokens, -seconds * rate)
            state.updated = now
        }
    }
}

/// Sends requests through a venue's token bucket, and pauses the bucket when the venue's
/// answer says its quota is spent (the venue's `AdapterDescriptor.quotaHeader`).
///
/// The wait for a token counts against the request's own budget (`HTTPRequest.timeouts`, set
/// by `RetryingHTTPClient` from `--timeout`; `defaultTimeouts` otherwise): a request whose token
/// would come after its deadline fails at once with `TransportError.timeout`, and one that waited
/// is sent with what is left of its budget.
public struct RateLimitedHTTPClient: HTTPClient {
    public let base: any HTTPClient
    public let bucket: TokenBucket
    /// The header in which the venue reports its remaining quota, if any.
    public let quotaHeader: QuotaHeader?

    /// The budget of a request that carries none.
    public let defaultTimeouts: HTTPTimeouts

    public init(
        base: any HTTPClient, bucket: TokenBucket, quotaHeader: QuotaHeader? = nil,
        defaultTimeouts: HTTPTimeouts = .standard
    ) {
        self.base = base
        self.bucket = bucket
        self.quotaHeader = quotaHeader
        self.defaultTimeouts = defaultTimeouts
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let budget = request.timeouts ?? defaultTimeouts
        guard let wait = try await bucket.acquire(within: budget.total) else {
            throw TransportError.timeout(url: request.url, seconds: budget.total)
        }
        var forwarded = request
        let left = budget.total - wait
        forwarded.timeouts = HTTPTimeouts(connect: min(budget.connect, left), total: left)
        let response = try await base.send(forwarded)
        if let pause = quotaHeader?.pause(after: response), pause > 0 { bucket.pause(for: pause) }
        return response
    }
}
