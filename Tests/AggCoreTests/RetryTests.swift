import AggCore
import Foundation
import Synchronization
import Testing

/// Virtual time: sleeping advances the clock instantly, and every sleep is recorded.
final class VirtualClock: Sendable {
    private let state = Mutex((now: 1000.0, sleeps: [Double]()))

    var clock: RetryClock {
        RetryClock(
            now: { self.state.withLock { $0.now } },
            sleep: { seconds in
                self.state.withLock {
                    $0.now += seconds; $0.sleeps.append(seconds)
                }
            },
            random: { 0.5 })
    }

    var sleeps: [Double] { state.withLock { $0.sleeps } }

    func advance(_ seconds: Double) { state.withLock { $0.now += seconds } }
}

/// Answers with a scripted sequence of results, one per request; records each request.
final class SequenceClient: HTTPClient {
    enum Step: Sendable {
        case status(Int, headers: [HTTPHeader] = [])
        case fail(TransportError)
    }

    private let state: Mutex<(steps: [Step], requests: [HTTPRequest])>
    private let clock: VirtualClock?
    private let cost: Double

    /// Each attempt takes `cost` virtual seconds.
    init(_ steps: [Step], clock: VirtualClock? = nil, cost: Double = 0) {
        state = Mutex((steps: steps, requests: []))
        self.clock = clock
        self.cost = cost
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        clock?.advance(cost)
        let step = state.withLock { state -> Step in
            state.requests.append(request)
            return state.steps.isEmpty ? .status(200) : state.steps.removeFirst()
        }
        switch step {
        case .status(let status, let headers):
            return HTTPResponse(status: status, headers: headers, body: [], url: request.url)
        case .fail(let error):
            throw error
        }
    }
}

@Suite("Retries inside the time budget")
struct RetryTests {
    let url = "https://venue.test/ticker"
    let budget = HTTPTimeouts(connect: 5, total: 10)

    func client(_ steps: [SequenceClient.Step], cost: Double = 0) -> (RetryingHTTPClient, SequenceClient, VirtualClock)
    {
        let clock = VirtualClock()
        let base = SequenceClient(steps, clock: clock, cost: cost)
        return (RetryingHTTPClient(base: base, policy: .standard, timeouts: budget, clock: clock.clock), base, clock)
    }

    @Test("5xx is retried twice with growing jittered backoff, then succeeds")
    func serverErrors() async throws {
        let (retrying, base, clock) = client([.status(500), .status(503)])
        let response = try await retrying.send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(base.requests.count == 3)
        #expect(clock.sleeps == [0.1875, 0.375])
    }

    @Test("after two retries the last 5xx answer stands")
    func gaveUp() async throws {
        let (retrying, base, _) = client([.status(500), .status(500), .status(502), .status(200)])
        #expect(try await retrying.send(HTTPRequest(url: url)).status == 502)
        #expect(base.requests.count == 3)
    }

    @Test("4xx is never retried", arguments: [400, 401, 403, 404, 451])
    func clientErrors(status: Int) async throws {
        let (retrying, base, _) = client([.status(status)])
        #expect(try await retrying.send(HTTPRequest(url: url)).status == status)
        #expect(base.requests.count == 1)
    }

    @Test("a dropped connection or a cut answer is retried")
    func connectionFailures() async throws {
        let (retrying, base, _) = client([
            .fail(.connection(url: url, detail: "refused")), .fail(.malformedResponse(url: url, detail: "cut")),
        ])
        #expect(try await retrying.send(HTTPRequest(url: url)).status == 200)
        #expect(base.requests.count == 3)
    }

    @Test("a body over the size cap is not transient: no retry")
    func tooLarge() async throws {
        let (retrying, base, clock) = client([.fail(.responseTooLarge(url: url, limit: 1024))])
        await #expect(throws: TransportError.responseTooLarge(url: url, limit: 1024)) {
            try await retrying.send(HTTPRequest(url: url))
        }
        #expect(base.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("a timeout uses up the budget and reports the whole budget")
    func timeout() async throws {
        let (retrying, base, _) = client([.fail(.timeout(url: url, seconds: 9.5))])
        await #expect(throws: TransportError.timeout(url: url, seconds: 10)) {
            try await retrying.send(HTTPRequest(url: url))
        }
        #expect(base.requests.count == 1)
    }

    @Test("each attempt gets only the time left")
    func shrinkingBudget() async throws {
        let (retrying, base, _) = client([.status(500), .status(500)], cost: 3)
        _ = try await retrying.send(HTTPRequest(url: url))
        let totals = base.requests.compactMap { $0.timeouts?.total }
        #expect(totals.count == 3)
        #expect(totals[0] == 10)
        #expect(totals[1] < 7 && totals[2] < totals[1])
    }

    @Test("429 waits for Retry-After when it fits the budget")
    func retryAfterFits() async throws {
        let (retrying, base, clock) = client([.status(429, headers: [HTTPHeader(name: "Retry-After", value: "2")])])
        #expect(try await retrying.send(HTTPRequest(url: url)).status == 200)
        #expect(base.requests.count == 2)
        #expect(clock.sleeps == [2])
    }

    @Test("429 with a Retry-After beyond the budget, or none, returns at once")
    func retryAfterTooLong() async throws {
        for headers in [[HTTPHeader(name: "Retry-After", value: "60")], []] {
            let (retrying, base, clock) = client([.status(429, headers: headers)])
            #expect(try await retrying.send(HTTPRequest(url: url)).status == 429)
            #expect(base.requests.count == 1)
            #expect(clock.sleeps.isEmpty)
        }
    }

    @Test("Retry-After as seconds or an HTTP date")
    func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_723_104_735)
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds(" 0 ", now: now) == 0)
        #expect(RetryAfter.seconds("Thu, 08 Aug 2024 08:12:45 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("Thu, 08 Aug 2024 08:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("-5", now: now) == nil)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
    }

    @Test("backoff doubles up to the cap; jitter keeps at least half")
    func backoff() {
        let policy = RetryPolicy(maximumRetries: 5, baseDelay: 0.25, maximumDelay: 1)
        #expect(policy.delay(beforeRetry: 1, unit: 0) == 0.125)
        #expect(policy.delay(beforeRetry: 1, unit: 0.999) < 0.25)
        #expect(policy.delay(beforeRetry: 2, unit: 1) == 0.5)
        #expect(policy.delay(beforeRetry: 5, unit: 1) == 1)
    }
}

@Suite("Token bucket")
struct TokenBucketTests {
    @Test("a burst beyond the capacity waits at the refill rate")
    func burst() async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: 10, capacity: 2, clock: clock.clock)
        for _ in 0..<5 { try await bucket.acquire() }
        #expect(clock.sleeps.count == 3)
        #expect(clock.sleeps.allSatisfy { abs($0 - 0.1) < 1e-9 })
    }

    @Test("tokens refill over time up to the capacity")
    func refill() async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: 2, capacity: 2, clock: clock.clock)
        try await bucket.acquire()
        try await bucket.acquire()
        clock.advance(10)
        try await bucket.acquire()
        try await bucket.acquire()
        #expect(clock.sleeps.isEmpty)
        try await bucket.acquire()
        #expect(clock.sleeps == [0.5])
    }

    @Test("a venue's 'quota spent' pauses the bucket")
    func pause() async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: 10, capacity: 10, clock: clock.clock)
        bucket.pause(for: 1)
        try await bucket.acquire()
        #expect(clock.sleeps.count == 1)
        #expect(abs(clock.sleeps[0] - 1.1) < 1e-9)
    }
}

@Suite("Rate-limited client")
struct RateLimitedClientTests {
    @Test(
        "the venue's quota header holds the next request when it says the quota is spent",
        arguments: [
            (QuotaHeader.remainingReq, "group=ticker; min=600; sec=0", 1.0),
            (.remainingReq, "group=ticker; min=600; sec=3", nil),
            (.rateLimit, "limit=50, remaining=0, reset=2", 2.0),
            (.rateLimit, "limit=50, remaining=48, reset=1", nil),
        ] as [(QuotaHeader, String, Double?)])
    func pausesAfterQuota(header: QuotaHeader, value: String, pause: Double?) async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: 10, capacity: 10, clock: clock.clock)
        let answer = SequenceClient.Step.status(200, headers: [HTTPHeader(name: header.name, value: value)])
        let client = RateLimitedHTTPClient(base: SequenceClient([answer, answer]), bucket: bucket, quotaHeader: header)
        _ = try await client.send(HTTPRequest(url: "https://venue.test/a"))
        #expect(clock.sleeps.isEmpty)
        _ = try await client.send(HTTPRequest(url: "https://venue.test/b"))
        if let pause {
            #expect(clock.sleeps.count == 1)
            #expect(abs(clock.sleeps[0] - (pause + 0.1)) < 1e-9)
        } else {
            #expect(clock.sleeps.isEmpty)
        }
    }
}
