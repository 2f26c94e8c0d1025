import AggCore
import AggFixtures
import AggTestKit
import Foundation
import Testing

/// `routes.json` must say where its answers come from; no default stands in for it.
@Suite("fixture routes: where the answers come from")
struct FixtureRoutesTests {
    /// What each shipped venue's notes and generators say (docs/venues.md keeps the same table).
    static let shipped: [String: FixtureRoutes.Provenance] = [
        "binance": .mixed, "bithumb": .mixed, "coinbase": .mixed, "upbit": .mixed, "exchangerate": .mixed,
        "coinone": .sample, "dunamu": .sample, "frankfurter": .sample, "gopax": .sample, "korbit": .sample,
        "kraken": .sample, "okx": .sample,
    ]

    @Test("every venue's fixtures declare their data; the shipped ones as their notes say")
    func shippedVenues() throws {
        let venues = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path).filter {
            FileManager.default.fileExists(
                atPath: Fixtures.directory.appendingPathComponent("\($0)/routes.json").path)
        }
        #expect(Set(Self.shipped.keys).isSubset(of: Set(venues)))
        // Every folder, a venue added since included (it must not need this list to pass).
        for venue in venues {
            let data = try Fixtures.routes(venue).data
            if let stated = Self.shipped[venue] { #expect(data == stated, "\(venue)") }
        }
    }

    /// A folder holding only `routes.json` with `manifest`.
    func folder(_ manifest: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agg-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try manifest.write(to: directory.appendingPathComponent("routes.json"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test(
        "a missing or unknown data field is an error naming the file and the field",
        arguments: [
            (
                #"{"venue": "x", "recorded": "2024-08-08T08:12:15Z", "routes": []}"#,
                "$.data: missing: one of recorded, sample, mixed"
            ),
            (
                #"{"venue": "x", "recorded": "2024-08-08T08:12:15Z", "data": "real", "routes": []}"#,
                "$.data: 'real' is not one of: recorded, sample, mixed"
            ),
            (
                #"{"venue": "x", "recorded": "2024-08-08T08:12:15Z", "data": 1, "routes": []}"#,
                "$.data: expected a string, found a number"
            ),
        ])
    func refused(manifest: String, problem: String) throws {
        let directory = try folder(manifest)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("routes.json").path
        #expect(throws: AggError.offline("\(path): \(problem)")) { try FixtureRoutes(directory: directory) }
    }

    @Test("each declared value is read", arguments: FixtureRoutes.Provenance.allCases)
    func declared(data: FixtureRoutes.Provenance) throws {
        let directory = try folder(
            #"{"venue": "x", "recorded": "2024-08-08T08:12:15Z", "data": ""# + data.rawValue + #"", "routes": []}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try FixtureRoutes(directory: directory).data == data)
    }
}
