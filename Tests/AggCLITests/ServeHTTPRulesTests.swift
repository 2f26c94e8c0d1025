import AggServer
import AggTestKit
import Testing

@testable import AggCLI

/// `agg serve`'s HTTP rules through the real app: one rule for query parameters on every
/// path, truncating escapes refused, HEAD without a stream subscription, gzip for /metrics.
@Suite("agg serve: the HTTP rules hold on every route")
struct ServeHTTPRulesTests {
    @Test(
        "a path that takes no parameters says so, /healthz and /metrics too",
        arguments: [
            ("/healthz?x=1", "/healthz takes no query parameters"),
            ("/metrics?x=1&x=2", "/metrics takes no query parameters"),
            ("/v1/stream?x=1", "/v1/stream takes no query parameters"),
        ])
    func noParameters(path: String, message: String) async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let answer = try await harness.get(path)
        #expect(answer.status == 400)
        #expect(answer.text == HTTPServerResponse.errorText(400, message))
    }

    @Test(
        "a NUL in a path or a value is 400, never truncated",
        arguments: [
            ("/metrics%00.png", "a NUL or control character in the path"),
            ("/v1/quote?symbol=ETH%00BTC", "a NUL or control character in a query parameter"),
        ])
    func nul(path: String, message: String) async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let answer = try await harness.get(path)
        #expect(answer.status == 400)
        #expect(answer.text == HTTPServerResponse.errorText(400, message))
    }

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
