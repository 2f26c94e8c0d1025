import AggCore
import FoundationEssentials

/// Answers requests from fixture answers (recorded or sample) instead of the network, through the same decoding
/// code as live data (`--offline`).
public struct OfflineHTTPClient: HTTPClient {
    public let routes: FixtureRoutes
    /// The base URL the adapter was given; stripped from request URLs to find the route.
    public let baseURL: String
    /// Whether routes answer their second versions (`FixtureRoutes.answer(path:query:next:)`).
    public let next: Bool

    public init(routes: FixtureRoutes, baseURL: String, next: Bool = false) {
        self.routes = routes
        self.baseURL = baseURL
        self.next = next
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try response(to: request)
    }

    /// The recorded answer to `request`, without suspending (for scripted test clients).
    public func response(to request: HTTPRequest) throws -> HTTPResponse {
        guard request.url.hasPrefix(baseURL) else { throw TransportError.invalidURL(request.url) }
        let rest = String(request.url.dropFirst(baseURL.count))
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let query = parts.count > 1 ? String(parts[1]) : ""
        guard let answer = try routes.answer(path: path, query: query, next: next) else {
            throw AggError.offline("no recorded \(routes.venue) response for \(rest)")
        }
        return HTTPResponse(
            status: answer.status, headers: answer.headers, body: answer.body, url: request.url)
    }
}
