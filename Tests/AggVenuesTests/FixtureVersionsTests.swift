import AggCore
import AggFixtures
import AggTestKit
import Foundation
import Testing

/// The second versions of fixture files (`<name>.next.json`), which end-to-end tests of market
/// events swap in between two ticks.
@Suite("fixture versions: a route's .next.json served once the test switches")
struct FixtureVersionsTests {
    /// Every second version shipped, by venue, and the first version it follows.
    static let shipped = [
        ("upbit", "/v1/market/all?isDetails=true", "market_all_details"),
        ("bithumb", "/v1/market/all?isDetails=true", "v1_market_all_details"),
        ("bithumb", "/v1/market/virtual_asset_warning", "v1_market_virtual_asset_warning"),
        ("bithumb", "/v1/notices?count=20", "v1_notices"),
        ("bithumb", "/public/assetsstatus/multichain/ALL", "assetsstatus_multichain_ALL"),
    ]

    @Test("the loopback server answers the first versions, then the second after useNextVersions(), then back")
    func loopback() async throws {
        let server = try FixtureServer(venues: ["upbit", "bithumb"])
        defer { server.stop() }
        let port = server.server.port
        for (venue, path, name) in Self.shipped {
            let firstBody = try Fixtures.bytes("\(venue)/\(name).json")
            let secondBody = try Fixtures.bytes("\(venue)/\(name).next.json")
            #expect(firstBody != secondBody, "\(name)")
            #expect(try await RawHTTPClient.get(port: port, "/\(venue)\(path)").body == firstBody, "\(name)")
            server.useNextVersions()
            #expect(try await RawHTTPClient.get(port: port, "/\(venue)\(path)").body == secondBody, "\(name)")
            server.useNextVersions(false)
            #expect(try await RawHTTPClient.get(port: port, "/\(venue)\(path)").body == firstBody, "\(name)")
        }
        // A route without a second version answers its only one either way.
        server.useNextVersions()
        #expect(
            try await RawHTTPClient.get(port: port, "/upbit/v1/market/all").body
                == Fixtures.bytes("upbit/market_all.json"))
    }

    @Test("in process, Fixtures.client(next:) answers the same second versions")
    func inProcess() async throws {
        for (venue, path, name) in Self.shipped {
            let client = try Fixtures.client(venue, baseURL: "https://x.invalid", next: true)
            let response = try await client.send(HTTPRequest(url: "https://x.invalid" + path))
            #expect(response.body == (try Fixtures.bytes("\(venue)/\(name).next.json")), "\(name)")
        }
    }

    @Test("every .next.json follows a file that a route answers")
    func noOrphans() throws {
        for venue in ["upbit", "bithumb"] {
            let routes = try Fixtures.routes(venue)
            let files = Set(routes.routes.compactMap(\.file))
            let seconds = try FileManager.default.contentsOfDirectory(atPath: routes.directory.path).filter {
                $0.hasSuffix(FixtureRoutes.nextSuffix)
            }
            for second in seconds {
                #expect(files.contains(String(second.dropLast(FixtureRoutes.nextSuffix.count)) + ".json"), "\(second)")
            }
            #expect(seconds.count == Self.shipped.filter { $0.0 == venue }.count)
        }
    }
}
