import AggCore
import Foundation
import Testing

/// Issue 20: at `agg record --interval 1` an FX source's HTTP 500 was reported as a timeout: the
/// retry after the 500 ran out of time. The venue's last answer now stands when the budget runs
/// out in a retry or before it.
@Suite("Retries: the venue's last answer stands when the budget runs out")
struct RetryLastAnswerTests {
    private static let url = "https://venue.test/rates"

    @Test("a 500, then a retry that times out: the 500 is the answer")
    func retryTimesOut() async throws {
        let clock = VirtualClock()
        let base = SequenceClient(
            [.status(500), .fail(.timeout(url: Self.url, seconds: 0.5))], clock: clock, cost: 0.3)
        let client = RetryingHTTPClient(base: base, timeouts: HTTPTimeouts(connect: 1, total: 1), clock: clock.clock)
        let response = try await client.send(HTTPRequest(url: Self.url))
        #expect(response.status == 500)
        #expect(base.requests.count == 2)
    }

    @Test("a 500 whose backoff leaves too little time for another try: the 500 is the answer")
    func noTimeLeft() async throws {
        let clock = VirtualClock()
        // The 503 comes after 0.97 s of a 1 s budget: no time for the backoff nor another try.
        let base = SequenceClient([.status(503)], clock: clock, cost: 0.97)
        let client = RetryingHTTPClient(base: base, timeouts: HTTPTimeouts(connect: 1, total: 1), clock: clock.clock)
        let response = try await client.send(HTTPRequest(url: Self.url))
        #expect(response.status == 503)
        #expect(base.requests.count == 1)
    }

    @Test("a timeout with no answer before it is still a timeout of the whole budget")
    func noAnswer() async throws {
        let clock = VirtualClock()
        let base = SequenceClient([.fail(.timeout(url: Self.url, seconds: 1))], clock: clock)
        let client = RetryingHTTPClient(base: base, timeouts: HTTPTimeouts(connect: 1, total: 1), clock: clock.clock)
        await #expect(throws: TransportError.timeout(url: Self.url, seconds: 1)) {
            try await client.send(HTTPRequest(url: Self.url))
        }
    }
}
