import AggCore
import AggTestKit
import Foundation
import Testing

/// Files a person writes are read strictly by the real binary: a venue file whose path climbs
/// out of its base URL, a name given twice, a version as a string, two files with one id, and a
/// config file with a name given twice are each one line naming the file and the JSON path, and
/// exit 78 (64 when the command names the refused venue); nothing is asked of the venue such a
/// file describes.
@Suite("venue and config files, read strictly, end to end")
struct EndToEndStrictFilesTests {
    /// A venue file in the shape of issue 20's repro, under a base URL with a path prefix.
    static func venue(id: String = "qaex", baseURL: String, path: String = "/ticker/{symbol}", extra: String = "")
        -> String
    {
        #"{"format": 1, "id": "\#(id)", "name": "QA", "country": "KR", "homeCurrency": "KRW", "#
            + #""quoteCurrencies": ["KRW"], "baseURL": "\#(baseURL)/api/v1", "requestsPerSecond": 10, "#
            + #""symbol": {"template": "{base}_{quote}"}, "#
            + #""ticker": {"path": "\#(path)", "fields": {"last": "$.last"}}\#(extra)}"#
    }

    /// A temporary home for one run: `config/config.json` (`{}`), `config/venues/` for venue
    /// files, and the environment pointing agg at them.
    struct Home {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("agg-e2e-strict-\(UUID().uuidString)")
        var venues: URL { root.appendingPathComponent("config/venues") }
        var config: URL { root.appendingPathComponent("config/config.json") }
        var environment: [String: String] {
            ["AGG_CONFIG": config.path, "AGG_HOME": root.appendingPathComponent("home").path]
        }

        init() throws {
            try FileManager.default.createDirectory(at: venues, withIntermediateDirectories: true)
            try "{}".write(to: config, atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test(
        "each hostile file is refused with exit 78 naming file and path, and its venue is never asked",
        arguments: [
            (
                "traversal", venue(baseURL: "BASE", path: "/../../../etc/{symbol}"),
                "$.ticker.path: a path may not hold '.' or '..' segments: it stays under the base URL's path"
            ),
            (
                "duplicate", venue(baseURL: "BASE", extra: #", "id": "bithumb""#),
                "$.id: the key 'id' is given twice in one object"
            ),
            (
                "format", venue(baseURL: "BASE").replacing(#""format": 1"#, with: #""format": "1""#),
                "$.format: expected the number 1, found a string"
            ),
        ])
    func hostileVenueFile(name: String, text: String, problem: String) async throws {
        let server = try LoopbackServer { _ in .json(#"{"last":"1"}"#) }
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }
        let file = home.venues.appendingPathComponent("\(name).json")
        try text.replacing("BASE", with: server.baseURL).write(to: file, atomically: true, encoding: .utf8)

        let environment = home.environment
        // The other venues still list; the refused one is not there, and the run exits 78.
        let listed = try await AggBinary.run(["exchanges", "-f", "csv"], environment: environment)
        #expect(listed.status == 78)
        #expect(listed.errorLines == ["agg: venue file \(file.path): \(problem)"])
        #expect(listed.output.contains("\nbithumb,"))
        #expect(!listed.output.contains("qaex"))
        // Asking for it is asking for a venue that does not exist: a usage error, after the line.
        let asked = try await AggBinary.run(["quote", "BTC", "-e", "qaex"], environment: environment)
        #expect(asked.status == 64)
        #expect(asked.errorLines.first == "agg: venue file \(file.path): \(problem)")
        #expect(asked.output == "")
        #expect(server.requests.isEmpty)
    }

    @Test("two user files with one id: the second is refused naming the first, the first answers, exit 78")
    func duplicateIDs() async throws {
        let server = try LoopbackServer { _ in .json(#"{"last":"58410.55"}"#) }
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }
        let first = home.venues.appendingPathComponent("a.json")
        let second = home.venues.appendingPathComponent("b.json")
        try Self.venue(baseURL: server.baseURL).write(to: first, atomically: true, encoding: .utf8)
        try Self.venue(baseURL: server.baseURL, path: "/other/{symbol}").write(
            to: second, atomically: true, encoding: .utf8)

        let run = try await AggBinary.run(["quote", "BTC", "-e", "qaex", "-f", "csv"], environment: home.environment)
        #expect(run.status == 78)
        #expect(run.errorLines == ["agg: venue file \(second.path): $.id: 'qaex' is already defined by \(first.path)"])
        #expect(
            run.output.split(separator: "\n").dropFirst().first?.hasPrefix("qaex,BTC/KRW,BTC,KRW,58410.55,") == true)
        #expect(server.requests.map(\.target) == ["/api/v1/ticker/BTC_KRW"])
    }

    @Test("a config file with a name given twice is exit 78 naming the file and the path")
    func configDuplicate() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("agg-e2e-strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let config = root.appendingPathComponent("config.json")
        try #"{"baseURLs": {"bithumb": "http://127.0.0.1:9/a", "bithumb": "http://127.0.0.1:9/b"}}"#.write(
            to: config, atomically: true, encoding: .utf8)
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb"],
            environment: ["AGG_CONFIG": config.path, "AGG_HOME": root.appendingPathComponent("home").path])
        #expect(run.status == 78)
        #expect(
            run.errorLines == ["agg: config file \(config.path): $.baseURLs.bithumb: the key 'bithumb' is given twice"])
        #expect(run.output == "")
    }
}
