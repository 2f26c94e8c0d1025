import AggCore
import AggTestKit
import AggTransport
import Testing

/// A body over the size cap is the venue's answer, not a transient failure: it is asked for
/// once, and reported as its own kind of error.
private struct Route: VenueRoute {
    var path: String
}

@Suite("CurlHTTPClient: the body size cap")
struct CurlHTTPClientBodyLimitTests {
    @Test("a body over the cap is asked for once and reported as too large, naming the venue and the limit")
    func tooLargeIsNotRetried() async throws {
        let server = try LoopbackServer { _ in .bytes([UInt8](repeating: 7, count: 4096)) }
        let retrying = RetryingHTTPClient(
            base: CurlHTTPClient(maximumBodySize: 1024), policy: .standard, timeouts: .standard)
        let descriptor = AdapterDescriptor(
            id: "bithumb", displayName: "Bithumb", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
            capabilities: [.allTickers], requestsPerSecond: 10, defaultBaseURL: server.baseURL)
        let venue = VenueClient(
            descriptor, environment: AdapterEnvironment(baseURL: server.baseURL, http: retrying), envelope: .none)
        let url = server.baseURL + "/public/ticker/ALL_KRW"

        let error = await #expect(throws: AggError.self) {
            _ = try await venue.get(Route(path: "/public/ticker/ALL_KRW")) { json in json }
        }

        #expect(server.requests.count == 1)
        #expect(error?.kind == "responseTooLarge")
        #expect(error?.description == "bithumb: the answer from \(url) is larger than the limit of 1024 bytes")
        #expect(error?.isUsageError == false)
    }
}
