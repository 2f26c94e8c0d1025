import AggCore
import Foundation
import Testing

/// Issue 20, rule 4: every wait is inside the request's time budget (`--timeout`), the rate
/// limiter's wait included, and no request rate a venue file can declare makes the limiter trap.
@Suite("The rate limiter waits only inside the timeout")
struct RateLimitBudgetTests {
    private static let url = "https://venue.test/ticker"

    /// A bucket of one token a second, with its token spent.
    private static func spentBucket(_ clock: VirtualClock) async throws -> TokenBucket {
        let bucket = TokenBucket(rate: 1, capacity: 1, clock: clock.clock)
        #expect(try await bucket.acquire(within: 10) == 0)
        return bucket
    }

    @Test("a request whose token comes after its deadline fails at once, without waiting or spending a token")
    func tokenAfterDeadline() async throws {
        let clock = VirtualClock()
        let bucket = try await Self.spentBucket(clock)
        let base = SequenceClient([])
        let client = RateLimitedHTTPClient(base: base, bucket: bucket)
        await #expect(throws: TransportError.timeout(url: Self.url, seconds: 0.5)) {
            try await client.send(HTTPRequest(url: Self.url, timeouts: HTTPTimeouts(connect: 0.5, total: 0.5)))
        }
        #expect(clock.sleeps == [])
        #expect(base.requests.isEmpty)
        // The refused request took no token: the next one, with time to wait, waits one second, not two.
        _ = try await client.send(HTTPRequest(url: Self.url, timeouts: HTTPTimeouts(connect: 5, total: 5)))
        #expect(clock.sleeps == [1])
        // ... and the venue gets what is left of the budget after the wait.
        #expect(base.requests.map(\.timeouts) == [HTTPTimeouts(connect: 4, total: 4)])
    }

    @Test("behind retries, the limiter's wait counts against --timeout: a 0.05 req/s venue with --timeout 5")
    func slowVenueWithinTimeout() async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: 0.05, clock: clock.clock)
        let base = SequenceClient([])
        let client = RetryingHTTPClient(
            base: RateLimitedHTTPClient(base: base, bucket: bucket), timeouts: HTTPTimeouts(connect: 5, total: 5),
            clock: clock.clock)
        _ = try await client.send(HTTPRequest(url: Self.url))
        let started = clock.clock.now()
        await #expect(throws: TransportError.timeout(url: Self.url, seconds: 5)) {
            try await client.send(HTTPRequest(url: Self.url))
        }
        #expect(clock.clock.now() - started == 0)
        #expect(base.requests.count == 1)
    }

    @Test("a venue's pause longer than the budget fails the request at once")
    func pauseLongerThanBudget() async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: 10, clock: clock.clock)
        bucket.pause(for: 1e300)
        let client = RateLimitedHTTPClient(base: SequenceClient([]), bucket: bucket)
        await #expect(throws: TransportError.timeout(url: Self.url, seconds: 2)) {
            try await client.send(HTTPRequest(url: Self.url, timeouts: HTTPTimeouts(connect: 2, total: 2)))
        }
        #expect(clock.sleeps == [])
    }

    @Test(
        "the accepted request rates: 0.001 to 1000 a second",
        arguments: [
            (0.001, true), (1000, true), (10, true), (0.0009, false), (1e-20, false), (1e-25, false), (1e-300, false),
            (1000.5, false), (0, false), (-1, false), (.nan, false), (.infinity, false),
        ])
    func acceptedRates(rate: Double, accepted: Bool) {
        let descriptor = AdapterDescriptor(
            id: "slow", displayName: "Slow", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
            capabilities: [.ticker], requestsPerSecond: rate, defaultBaseURL: "https://slow.test")
        if accepted {
            #expect(throws: Never.self) { try descriptor.checkRequestRate() }
        } else {
            #expect(throws: RequestRateError(rate: rate)) { try descriptor.checkRequestRate() }
        }
    }

    @Test("the limiter's arithmetic cannot trap, whatever rate or wait it is given", arguments: [1e-300, 1e-25, 0, -5])
    func noTrap(rate: Double) async throws {
        let clock = VirtualClock()
        let bucket = TokenBucket(rate: rate, clock: clock.clock)
        #expect(bucket.rate == RequestRate.minimum)
        #expect(try await bucket.acquire(within: 10) == 0)
        #expect(try await bucket.acquire(within: 10) == nil)
        bucket.pause(for: .infinity)
        #expect(try await bucket.acquire(within: 1e300) == nil)
        #expect(RetryClock.nanoseconds(1e300) == RetryClock.nanoseconds(RetryClock.longestSleep))
        #expect(RetryClock.nanoseconds(.nan) == 0)
        #expect(RetryClock.nanoseconds(-1) == 0)
        #expect(RetryClock.nanoseconds(1.5) == 1_500_000_000)
    }

    @Test("the description names the rate and the range")
    func message() {
        #expect(
            RequestRateError(rate: 1e-20).description
                == "expected a number of requests a second from 0.001 to 1000, found 1e-20")
    }
}
