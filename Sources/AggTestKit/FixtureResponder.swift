import AggCore
import AggFixtures
import Foundation
import Synchronization

/// Answers requests for one or more venues from their fixture answers in `Fixtures/`,
/// choosing the venue by the base URL the request starts with. Unlike `--offline`, it can sit
/// behind a scripted client, so a test can record, delay or fail requests and still get the
/// recorded bodies.
public struct FixtureResponder: Sendable {
    /// One offline client per venue, the longest base URL first so that a prefix never wins.
    private let venues: [OfflineHTTPClient]

    /// Answers for `venues`, by venue id, each under its base URL.
    public init(venues: [String: String]) throws {
        self.venues = try venues.map { id, baseURL in
            try Fixtures.client(id, baseURL: baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL)
        }
        .sorted { $0.baseURL.count > $1.baseURL.count }
    }

    /// Answers for one venue under `baseURL`.
    public init(venue: String, baseURL: String) throws {
        try self.init(venues: [venue: baseURL])
    }

    /// The recorded answer to `request`.
    ///
    /// - Throws: `TransportError.invalidURL` when no venue's base URL starts the request, and
    ///   `AggError.offline` when the venue has no route for it.
    public func respond(to request: HTTPRequest) throws -> HTTPResponse {
        guard let venue = venues.first(where: { request.url.hasPrefix($0.baseURL) }) else {
            throw TransportError.invalidURL(request.url)
        }
        return try venue.response(to: request)
    }
}

extension Fixtures {
    /// A client answering from `venue`'s fixture answers that records every request, so a
    /// test can assert which requests an adapter made.
    public static func recordingClient(_ venue: String, baseURL: String) throws -> ScriptedHTTPClient {
        let responder = try FixtureResponder(venue: venue, baseURL: baseURL)
        return ScriptedHTTPClient { request in try responder.respond(to: request) }
    }
}

/// An HTTP client whose script is asynchronous (it may sleep, to stand for a slow network),
/// recording every request it is sent and the most requests it had in flight at once.
public final class AsyncScriptedHTTPClient: HTTPClient {
    public typealias Script = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let script: Script
    private let log = RequestLog()
    private let inFlight = Mutex((current: 0, peak: 0))

    public init(_ script: @escaping Script) {
        self.script = script
    }

    /// Answers every request from `responder` after `delay`.
    public convenience init(delay: Duration, responder: FixtureResponder) {
        self.init { request in
            try await Task.sleep(for: delay)
            return try responder.respond(to: request)
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.append(request)
        inFlight.withLock { counts in
            counts.current += 1
            counts.peak = max(counts.peak, counts.current)
        }
        defer { inFlight.withLock { $0.current -= 1 } }
        return try await script(request)
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequest] { log.all }

    /// The most requests that were waiting for an answer at the same time: with slow answers,
    /// it shows which requests were sent together without measuring time.
    public var peakConcurrentRequests: Int { inFlight.withLock { $0.peak } }
}
