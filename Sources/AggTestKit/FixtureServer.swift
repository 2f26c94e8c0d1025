import AggCore
import AggFixtures
import Foundation

/// A loopback server that answers as the venues do, from `Fixtures/<venue>/routes.json`.
///
/// Requests are addressed `/<venue>/<venue's own path>`, so one server stands in for every
/// venue: point `AGG_<ID>_URL` at `baseURL(for:)`. A test can take over any request with
/// `override` to inject faults (delays, 5xx, truncated bodies, dropped connections).
public final class FixtureServer: Sendable {
    public let server: LoopbackServer
    private let routes: [String: FixtureRoutes]

    /// Serves `venues` (every folder in `Fixtures/` when `nil`); `override` answers first when it
    /// returns a reply.
    public init(
        venues: [String]? = nil,
        override: @escaping @Sendable (_ venue: String, _ request: LoopbackRequest) -> LoopbackReply? = { _, _ in nil }
    ) throws {
        let names =
            try venues
            ?? FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path).filter { name in
                FileManager.default.fileExists(
                    atPath: Fixtures.directory.appendingPathComponent(name).appendingPathComponent("routes.json").path)
            }
        var routes: [String: FixtureRoutes] = [:]
        for name in names { routes[name] = try Fixtures.routes(name) }
        let table = routes
        self.routes = table
        server = try LoopbackServer { request in
            let parts = request.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true)
            let venue = parts.first.map(String.init) ?? ""
            let rest = parts.count > 1 ? "/" + parts[1] : "/"
            var venueRequest = request
            venueRequest.path = rest
            if let reply = override(venue, venueRequest) { return reply }
            guard let venueRoutes = table[venue] else {
                return .json("{\"error\":\"no such venue in Fixtures: \(venue)\"}", status: 404)
            }
            do {
                guard let answer = try venueRoutes.answer(path: rest, query: request.query) else {
                    return .json("{\"error\":\"no recorded answer for \(rest)\"}", status: 404)
                }
                return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body)
            } catch {
                return .json("{\"error\":\"\(error)\"}", status: 500)
            }
        }
    }

    /// The base URL standing in for `venue`: `http://127.0.0.1:PORT/<venue>`.
    public func baseURL(for venue: String) -> String {
        server.baseURL + "/" + venue
    }

    /// `AGG_<ID>_URL` for every served venue, pointing here.
    public var environment: [String: String] {
        Dictionary(
            uniqueKeysWithValues: routes.keys.map { venue in
                ("AGG_" + venue.uppercased() + "_URL", baseURL(for: venue))
            })
    }

    /// Every request received, with the venue prefix still on the path.
    public var requests: [LoopbackRequest] { server.requests }

    /// Empties the log of requests (see `LoopbackServer.forgetRequests()`).
    public func forgetRequests() { server.forgetRequests() }

    public func stop() { server.stop() }
}
