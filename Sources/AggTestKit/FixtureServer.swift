import AggCore
import AggFixtures
import Foundation
import Synchronization

/// A loopback server that answers as the venues do, from `Fixtures/<venue>/routes.json`.
///
/// Requests are addressed `/<venue>/<venue's own path>`, so one server stands in for every
/// venue: point `AGG_<ID>_URL` at `baseURL(for:)`. A test can take over any request with
/// `override` to inject faults (delays, 5xx, truncated bodies, dropped connections).
///
/// Every route answers its file until `useNextVersions()`; from then on, a route whose file has a
/// second version (`Fixtures/<venue>/<name>.next.json`) answers that instead, as the venue would
/// a tick later: market lists, warnings, notices and transfer status that change between two
/// observations.
public final class FixtureServer: Sendable {
    public let server: LoopbackServer
    private let routes: [String: FixtureRoutes]
    private let versions: FixtureVersions

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
        let versions = FixtureVersions()
        self.versions = versions
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
                guard let answer = try venueRoutes.answer(path: rest, query: request.query, next: versions.next)
                else {
                    return .json("{\"error\":\"no recorded answer for \(rest)\"}", status: 404)
                }
                return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body)
            } catch {
                return .json("{\"error\":\"\(error)\"}", status: 500)
            }
        }
    }

    /// From now on, every route with a second version (`<name>.next.json`) answers it; `false`
    /// goes back to the first versions.
    public func useNextVersions(_ next: Bool = true) {
        versions.next = next
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

/// Which version of the fixture files a `FixtureServer` answers, switched by its test.
private final class FixtureVersions: Sendable {
    private let state = Mutex(false)

    var next: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
