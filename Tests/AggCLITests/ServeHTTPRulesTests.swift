import AggServer
import AggTestKit
import Testing

@testable import AggCLI
@testable import AggServe

/// `agg serve`'s HTTP rules through the real app: HEAD without a stream subscription, gzip for
/// /metrics. (One rule for every path's query parameters and NULs refused: the bad-query rows of
/// ServeEndpointTests.)
@Suite("agg serve: the HTTP rules hold on every route")
struct ServeHTTPRulesTests {
    @Test("HEAD /v1/stream: the stream's headers, no body, no subscriber")
    func headStream() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let answer = try await harness.get("/v1/stream", method: "HEAD")
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "text/event-stream")
        #expect(answer.body.isEmpty)
        #expect(harness.runtime.streams.subscriberCount == 0)
    }

    @Test("/metrics is gzipped for a client that accepts it")
    func gzipMetrics() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let plain = try await harness.get("/metrics")
        let zipped = try await harness.get("/metrics", headers: ["Accept-Encoding: gzip"])
        #expect(plain.header("content-encoding") == nil)
        #expect(zipped.header("content-encoding") == "gzip")
        #expect(zipped.header("vary") == "Accept-Encoding")
        #expect(Array(zipped.body.prefix(2)) == [0x1F, 0x8B])
        #expect(zipped.body.count * 4 < plain.body.count)
    }
}
