import AggCore
import AggJSON
import Synchronization
import Testing

/// Answers every request with one status, body and header set; records the URLs asked for.
private final class FixedClient: HTTPClient {
    let status: Int
    let body: String
    let headers: [HTTPHeader]
    let failure: TransportError?
    private let urls = Mutex<[String]>([])

    init(status: Int = 200, body: String, headers: [HTTPHeader] = [], failure: TransportError? = nil) {
        self.status = status
        self.body = body
        self.headers = headers
        self.failure = failure
    }

    var requested: [String] { urls.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        urls.withLock { $0.append(request.url) }
        if let failure { throw failure }
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8), url: request.url)
    }
}

private struct Route: VenueRoute {
    var path: String
}

private let descriptor = AdapterDescriptor(
    id: "testvenue", displayName: "Test Venue", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW", "BTC"],
    capabilities: [.ticker], requestsPerSecond: 10, defaultBaseURL: "https://venue.test", notListedCodes: ["5500"])

/// `{"status":"0000","data":...}`, errors `{"status":"5500","message":"..."}`: Bithumb's shape.
private let envelope = ResponseEnvelope(
    error: { json, _ in
        guard let status = try? json["status"].text(), status != "0000" else { return nil }
        return VenueErrorFields(code: status, message: (try? json["message"].text()) ?? "")
    },
    payload: { json throws(JSONDecodingError) in
        guard json["status"].isPresent else { throw json["status"].failure("expected the status envelope") }
        return json["data"]
    })

private func client(_ http: FixedClient, baseURL: String = "https://venue.test/prefix/") -> VenueClient {
    VenueClient(descriptor, environment: AdapterEnvironment(baseURL: baseURL, http: http), envelope: envelope)
}

private let btc = Market(base: "BTC", quote: "KRW")
private func price(_ json: JSONCursor) throws(JSONDecodingError) -> String {
    try json["price"].string()
}

@Suite("Venue client")
struct VenueClientTests {
    @Test("the payload is decoded, and the base URL's path prefix is kept")
    func decodesPayload() async throws {
        let http = FixedClient(body: #"{"status":"0000","data":{"price":"80630000"}}"#)
        let value = try await client(http).get(Route(path: "/ticker/BTC_KRW"), for: btc, decode: price)
        #expect(value == "80630000")
        #expect(http.requested == ["https://venue.test/prefix/ticker/BTC_KRW"])
    }

    @Test(
        "the venue's not-listed code is notListed for the market asked, with its code and message, whatever the status",
        arguments: [200, 400, 404])
    func notListed(status: Int) async {
        let http = FixedClient(status: status, body: #"{"status":"5500","message":"잘못된 코인명입니다."}"#)
        await #expect(
            throws: AggError.notListed(venue: "testvenue", market: btc, code: "5500", message: "잘못된 코인명입니다.")
        ) {
            try await client(http).get(Route(path: "/ticker/BTC_KRW"), for: btc, decode: price)
        }
    }

    @Test("other codes, and not-listed codes of requests about no one market, stay venue errors")
    func otherCodes() async {
        let other = FixedClient(body: #"{"status":"5600","message":"입력값을 확인해주세요."}"#)
        await #expect(throws: AggError.venue(venue: "testvenue", code: "5600", message: "입력값을 확인해주세요.")) {
            try await client(other).get(Route(path: "/ticker/BTC_KRW"), for: btc, decode: price)
        }
        let batch = FixedClient(body: #"{"status":"5500","message":"x"}"#)
        await #expect(throws: AggError.venue(venue: "testvenue", code: "5500", message: "x")) {
            try await client(batch).get(Route(path: "/ticker/ALL_KRW"), decode: price)
        }
    }

    @Test("an envelope error carrying one of the venue's rate-limit codes is a rate limit, whatever the status")
    func rateLimitCodes() async {
        var limited = descriptor
        limited.rateLimitCodes = ["4"]
        let http = FixedClient(body: #"{"status":"4","message":"Blocked user access."}"#)
        let venue = VenueClient(
            limited, environment: AdapterEnvironment(baseURL: "https://venue.test", http: http), envelope: envelope)
        await #expect(throws: AggError.rateLimited(venue: "testvenue", retryAfterSeconds: nil)) {
            try await venue.get(Route(path: "/ticker/BTC_KRW"), for: btc, decode: price)
        }
        // Without the code in the descriptor, the same answer is the venue's own error.
        await #expect(throws: AggError.venue(venue: "testvenue", code: "4", message: "Blocked user access.")) {
            try await client(http).get(Route(path: "/ticker/BTC_KRW"), for: btc, decode: price)
        }
    }

    @Test("a market in a currency the venue does not serve is not listed, without a request")
    func unserved() async {
        let http = FixedClient(body: "{}")
        let usd = Market(base: "BTC", quote: "USD")
        await #expect(
            throws: AggError.notListed(
                venue: "testvenue", market: usd, code: "", message: "agg asks Test Venue only for markets in KRW, BTC")
        ) {
            try await client(http).get(Route(path: "/ticker/BTC_USD"), for: usd, decode: price)
        }
        #expect(http.requested.isEmpty)
    }

    @Test(
        "statuses, envelopes and bodies become typed errors naming the venue",
        arguments: [
            (
                429, #"{"status":"5600","message":"too many"}"#,
                AggError.rateLimited(venue: "testvenue", retryAfterSeconds: 3)
            ),
            (418, "", .rateLimited(venue: "testvenue", retryAfterSeconds: 3)),
            (451, "", .locationRestricted(venue: "testvenue", url: "https://venue.test/prefix/x")),
            (502, "{}", .http(venue: "testvenue", status: 502, url: "https://venue.test/prefix/x")),
            (200, "{}", .decoding(venue: "testvenue", path: "$.status", detail: "expected the status envelope")),
            (
                200, #"{"status":"0000","data":{"price":7}}"#,
                .decoding(venue: "testvenue", path: "$.data.price", detail: "expected a string, found a number")
            ),
            (
                200, "<html>\nBad gateway",
                .decoding(
                    venue: "testvenue", path: "$",
                    detail: "the body is not JSON (invalid JSON at byte 0: unexpected character '<'); "
                        + "it starts with '<html> Bad gateway'")
            ),
        ])
    func failures(status: Int, body: String, expected: AggError) async {
        let http = FixedClient(status: status, body: body, headers: [HTTPHeader(name: "Retry-After", value: "3")])
        await #expect(throws: expected) {
            try await client(http).get(Route(path: "/x"), decode: price)
        }
    }

    @Test("transport failures name the venue")
    func transport() async {
        let http = FixedClient(body: "", failure: .timeout(url: "https://venue.test/prefix/x", seconds: 5))
        await #expect(throws: AggError.timeout(venue: "testvenue", url: "https://venue.test/prefix/x", seconds: 5)) {
            try await client(http).get(Route(path: "/x"), decode: price)
        }
    }

    @Test("a descriptor's not-listed codes are data")
    func meansNotListed() {
        #expect(descriptor.meansNotListed(.venue(venue: "testvenue", code: "5500", message: "")))
        #expect(descriptor.meansNotListed(.notListed(venue: "testvenue", market: btc, code: "", message: "")))
        #expect(!descriptor.meansNotListed(.venue(venue: "testvenue", code: "5600", message: "")))
        #expect(!descriptor.meansNotListed(.http(venue: "testvenue", status: 404, url: "https://venue.test")))
    }
}

@Suite("Adapter registry")
struct AdapterRegistryTests {
    struct Stub: CompiledAdapter {
        static let descriptor = AdapterDescriptor(
            id: "stub", displayName: "Stub", country: "ZZ", homeCurrency: "USD", quoteCurrencies: ["USD"],
            capabilities: [.ticker], requestsPerSecond: 1, defaultBaseURL: "https://stub.test")

        init(environment: AdapterEnvironment) {}

        func quote(for market: Market) async throws(AggError) -> Quote {
            Quote(exchange: "stub", market: market, last: 1)
        }
    }

    @Test("a registration need not be a compiled type: its descriptor is data, its factory a closure")
    func dataRegistration() async throws {
        var described = Stub.descriptor
        described.id = "described"
        let registry = AdapterRegistry([
            AdapterRegistration(Stub.self),
            AdapterRegistration(descriptor: described) { environment in Stub(environment: environment) },
        ])
        #expect(registry.ids == ["described", "stub"])
        #expect(registry.descriptor(id: "described")?.id == "described")
        let adapter = try registry.makeAdapter(
            id: "STUB", environment: AdapterEnvironment(baseURL: "https://stub.test", http: FixedClient(body: "")))
        #expect(try await adapter.quote(for: btc).last == 1)
        await #expect(throws: AggError.unsupported(venue: "stub", capability: .orderBook)) {
            try await adapter.orderBook(for: btc, depth: 1)
        }
    }

    @Test("registering an id again replaces it; unknown ids list the known ones")
    func replaceAndUnknown() {
        var registry = AdapterRegistry()
        registry.register(Stub.self)
        var renamed = Stub.descriptor
        renamed.displayName = "Renamed"
        registry.register(AdapterRegistration(descriptor: renamed) { Stub(environment: $0) })
        #expect(registry.registrations.count == 1)
        #expect(registry.descriptor(id: "stub")?.displayName == "Renamed")
        #expect(throws: AggError.unknownExchange("nope", known: ["stub"])) {
            try registry.requireDescriptor(id: "nope")
        }
    }
}

@Suite("Venue client: missing endpoints")
struct VenueClientMissingEndpointTests {
    @Test(
        "an HTML page (any status) or a 404 that is not JSON is a missing endpoint; the venue's JSON never is",
        arguments: [
            (404, "<!DOCTYPE html><html>Not Found</html>", true),
            (200, "\n  <html><body>maintenance</body></html>", true),
            (503, "<html>down</html>", true),
            (404, "", true),
            (404, "Not Found", true),
            (404, #"{"error":{"name":404,"message":"Code not found"}}"#, false),
            (404, "[]", false),
            (200, "OK", false),
            (500, "Internal Server Error", false),
            (200, #"{"status":"0000","data":{}}"#, false),
        ])
    func classification(status: Int, body: String, missing: Bool) {
        let response = HTTPResponse(status: status, headers: [], body: Array(body.utf8), url: "https://venue.test/x")
        #expect(VenueClient.isMissingEndpoint(response) == missing)
    }

    @Test("getUnlessMissing: the value, the missing endpoint with the error get would throw, or that error")
    func answers() async throws {
        let answered = try await client(FixedClient(body: #"{"status":"0000","data":{"price":"5"}}"#))
            .getUnlessMissing(Route(path: "/ticker"), for: btc, decode: price)
        guard case .answered("5") = answered else {
            Issue.record("expected the price, got \(answered)")
            return
        }
        let missing = try await client(FixedClient(status: 404, body: "<html>no</html>"))
            .getUnlessMissing(Route(path: "/ticker"), for: btc, decode: price)
        guard case .missing(.http(venue: "testvenue", status: 404, url: "https://venue.test/prefix/ticker")) = missing
        else {
            Issue.record("expected a missing endpoint, got \(missing)")
            return
        }
        await #expect(throws: AggError.notListed(venue: "testvenue", market: btc, code: "5500", message: "bad coin")) {
            _ = try await client(FixedClient(status: 404, body: #"{"status":"5500","message":"bad coin"}"#))
                .getUnlessMissing(Route(path: "/ticker"), for: btc, decode: price)
        }
        let unserved = FixedClient(body: "{}")
        await #expect(throws: AggError.self) {
            _ = try await client(unserved).getUnlessMissing(
                Route(path: "/ticker"), for: Market(base: "BTC", quote: "ZZZ"), decode: price)
        }
        #expect(unserved.requested.isEmpty)
    }
}
