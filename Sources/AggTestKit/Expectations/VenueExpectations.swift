import AggCore
import AggFixtures
import AggJSON
import Foundation

/// What one venue answers, as data: `Fixtures/<venue>/expectations.json`, beside the recorded
/// answers in `routes.json` that it is checked against.
///
/// ```json
/// {"venue": "kraken", "cases": [
///   {"test": "one ticker", "ask": {"ticker": "BTC/USD"},
///    "sent": [{"url": "/0/public/Ticker?pair=XBTUSD", "route": "Ticker_XBTUSD.json"}],
///    "answer": {"exchange": "kraken", "market": "BTC/USD", "last": "58419.9"}},
///   {"test": "an unknown pair", "ask": {"ticker": "NOPE/USD"},
///    "sent": [{"url": "/0/public/Ticker?pair=NOPEUSD", "route": "error_unknown_asset_pair.json"}],
///    "error": {"kind": "notListed", "message": "kraken: NOPE/USD is not listed (...)"}}
/// ]}
/// ```
///
/// Each case asks one capability (`ask`, see `ExpectationRequest`), names every request the
/// adapter must send, in order unless `sentInAnyOrder` is true (its URL after the base URL, and the file of the route that answers it,
/// `null` for a route without one), and states the answer (see `ModelValue.mismatches`) or the
/// exact error (its kind and its one-line message).
public struct VenueExpectations: Sendable {
    /// One request sent to the venue: the URL after the base URL, and the recorded answer's file.
    public struct Sent: Sendable, Equatable, CustomStringConvertible {
        public var url: String
        public var route: String?

        public var description: String { "\(url) → \(route ?? "no file")" }
    }

    /// One expectation.
    public struct Case: Sendable {
        /// What the case shows, named in every problem it reports.
        public var test: String
        public var request: ExpectationRequest
        public var sent: [Sent]
        /// Whether the requests go out at once, so that they may arrive in any order.
        public var sentInAnyOrder: Bool
        /// The answer, or `{"error": {"kind": ..., "message": ...}}`.
        public var expected: JSONValue
    }

    public let venue: String
    public let cases: [Case]

    /// The expectations in `bytes`, the text of an `expectations.json`.
    public init(json bytes: [UInt8]) throws {
        let json = JSONCursor(try JSONParser.parse(bytes))
        venue = try json["venue"].string()
        cases = try json["cases"].elements().map { item throws(JSONDecodingError) in
            let answer = item["answer"]
            let error = item["error"]
            guard answer.isPresent != error.isPresent else {
                throw item.failure("expected exactly one of answer and error")
            }
            let expected: JSONValue
            if let value = answer.value {
                expected = value
            } else {
                _ = try error["kind"].string()
                _ = try error["message"].string()
                expected = .object(JSONObject([.init(key: "error", value: error.value ?? .null)]))
            }
            return Case(
                test: try item["test"].string(), request: try ExpectationRequest(item["ask"]),
                sent: try item["sent"].elements().map { sent throws(JSONDecodingError) in
                    Sent(url: try sent["url"].string(), route: try sent["route"].optionalString())
                },
                sentInAnyOrder: item["sentInAnyOrder"].isPresent ? try item["sentInAnyOrder"].bool() : false,
                expected: expected)
        }
    }

    /// The expectations of `venue` in the checkout's `Fixtures/`.
    public static func venue(_ venue: String) throws -> VenueExpectations {
        try VenueExpectations(json: Fixtures.bytes("\(venue)/expectations.json"))
    }

    /// Every case's differences from what `registration`'s adapter answers from the venue's
    /// recorded answers, each line naming its case; none when every expectation holds.
    ///
    /// By default the answers come in process, as `--offline` serves them, under the venue's own
    /// base URL; `http` and `baseURL` put a real transport in between (a `FixtureServer` serving
    /// the same routes), with the same expectations.
    public func check(
        _ registration: AdapterRegistration, baseURL: String? = nil, http: (any HTTPClient)? = nil
    ) async throws -> [String] {
        let id = registration.descriptor.id
        var problems = venue == id ? [] : ["the file is about \(venue), checked against \(id)"]
        let routes = try Fixtures.routes(id)
        let base = baseURL ?? registration.descriptor.defaultBaseURL
        let transport = http ?? OfflineHTTPClient(routes: routes, baseURL: base)
        for item in cases {
            let found = await check(item, registration, routes: routes, baseURL: base, http: transport)
            problems += found.map { "\(item.test): \($0)" }
        }
        return problems
    }

    private func check(
        _ item: Case, _ registration: AdapterRegistration, routes: FixtureRoutes, baseURL: String,
        http: any HTTPClient
    ) async -> [String] {
        let client = AsyncScriptedHTTPClient { request in try await http.send(request) }
        let adapter = registration.make(AdapterEnvironment(baseURL: baseURL, http: client))
        let answer: ModelValue
        do throws(AggError) {
            answer = try await item.request.ask(adapter)
        } catch {
            answer = ModelValue(error)
        }
        let sent = client.requests.map { (request: HTTPRequest) -> Sent in
            let rest = request.url.hasPrefix(baseURL) ? String(request.url.dropFirst(baseURL.count)) : request.url
            let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let route = routes.route(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "")
            return Sent(url: rest, route: route?.file)
        }
        var problems = answer.mismatches(item.expected)
        // Requests an adapter sends at once (a ticker and its stats) arrive in any order.
        let same =
            item.sentInAnyOrder
            ? sent.map(\.description).sorted() == item.sent.map(\.description).sorted() : sent == item.sent
        if !same {
            problems.append("sent \(sent.map(\.description)), expected \(item.sent.map(\.description))")
        }
        return problems
    }

    /// What the file leaves unsaid about `descriptor`'s venue: a declared capability with no case
    /// that answers, or no case of an error.
    public func gaps(_ descriptor: AdapterDescriptor) -> [String] {
        var gaps: [String] = []
        // A stream is held by its frame scripts (Fixtures/<id>/stream), not by REST cases; event
        // sources by their decoding suites (exact facts per fixture) and the contract checker.
        for capability in Capability.allCases
        where descriptor.supports(capability) && capability != .stream && capability != .events {
            let answered = cases.contains { $0.request.capability == capability && !$0.isError }
            if !answered { gaps.append("\(capability.rawValue): declared, but no case shows an answer") }
        }
        if !cases.contains(where: \.isError) { gaps.append("no case shows an error") }
        return gaps
    }
}

extension VenueExpectations.Case {
    /// Whether the case expects an error.
    var isError: Bool {
        if case .object(let object) = expected, object.members.count == 1, object["error"] != nil { return true }
        return false
    }
}
