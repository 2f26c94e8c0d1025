import AggTestKit
import Foundation
import Testing

/// How the real binary writes its output: where no terminal is involved, and when writing fails.
@Suite("agg output end to end")
struct EndToEndOutputTests {
    func environment(_ server: FixtureServer, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-output-" + UUID().uuidString
        environment.merge(extra) { _, new in new }
        return environment
    }

    static let fullTable = """
        EXCHANGE  MARKET          LAST       24H    CHANGE        HIGH         LOW                VOLUME  UPDATED (UTC)
        bithumb   BTC/KRW   80,630,000  ▼ -0.54%  -435,000  81,500,000  77,734,000              1,368.01  2024-08-08 08:12:15
        bithumb   ETH/KRW    3,406,000  ▲ +0.47%    16,000   3,460,000   3,275,000             13,620.04  2024-08-08 08:12:15
        bithumb   XRP/KRW        790.4  ▲ +1.07%       8.4         805       760.1        130,241,587.46  2024-08-08 08:12:15
        bithumb   SHIB/KRW     0.01897  ▼ -1.25%  -0.00024     0.01951     0.01874  1,687,459,874,521.25  2024-08-08 08:12:15

        """

    @Test("-f table to a pipe is the whole table: no 80-column cut where no terminal is involved")
    func fullTableInPipe() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "XRP", "SHIB", "-e", "bithumb", "-f", "table"], environment: environment(server))
        #expect(run.status == 0)
        // The table as before, then AGE: the recordings are days old by the wall clock, and stale.
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasSuffix("  AGE") == true)
        #expect(
            lines.dropFirst().dropLast().allSatisfy {
                $0.range(of: #"  \d+d stale$"#, options: .regularExpression) != nil
            })
        let withoutAge = lines.map { $0.replacing(#/ +(AGE|\d+d stale)$/#, with: "") }
        #expect(withoutAge.joined(separator: "\n") == Self.fullTable)
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count > 80 })
    }

    @Test("an explicit $COLUMNS still sets the width of a table in a pipe")
    func columnsInPipe() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "XRP", "SHIB", "-e", "bithumb", "-f", "table"],
            environment: environment(server, ["COLUMNS": "80"]))
        #expect(run.status == 0)
        // AGE is the last column to give way; HIGH goes first now.
        #expect(
            run.output.split(separator: "\n").first?.hasPrefix("EXCHANGE  MARKET          LAST       24H          ")
                == true)
        #expect(run.output.split(separator: "\n").first?.hasSuffix("VOLUME         AGE") == true)
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    /// `/dev/full`: every write fails with ENOSPC.
    func devFull() throws -> FileHandle {
        try #require(FileHandle(forWritingAtPath: "/dev/full"))
    }

    static let writeFailure = "agg: cannot write to standard output: No space left on device"

    @Test(
        "a failed write to stdout exits 74 with one line on stderr, whatever the format or command",
        arguments: [
            ["quote", "--all", "-e", "bithumb", "-f", "json"],
            ["quote", "BTC", "-e", "bithumb", "-f", "table"],
            ["quote", "BTC", "NOPE", "-e", "bithumb", "-f", "csv"],
            ["search", "ETH", "-e", "upbit"],
            ["exchanges"],
            ["--help"],
            ["--version"],
        ])
    func writeFailure(arguments: [String]) async throws {
        let server = try FixtureServer(venues: ["bithumb", "upbit"])
        let run = try await AggBinary.run(arguments, environment: environment(server), standardOutput: try devFull())
        #expect(run.status == 74)
        #expect(run.errorLines.filter { !$0.contains("NOPE") } == [Self.writeFailure])
    }

    @Test("--help documents exit code 74")
    func helpDocumentsExit74() async throws {
        let run = try await AggBinary.run(["--help"])
        #expect(run.output.contains("74 output could not be written (disk full, I/O error)"))
    }

    @Test("the issue's example: quote --all --offline -f json > /dev/full exits 74")
    func offlineWriteFailure() async throws {
        let run = try await AggBinary.run(
            ["quote", "--all", "-e", "bithumb", "--offline", "-f", "json"],
            environment: ["AGG_FIXTURES": Fixtures.directory.path], standardOutput: try devFull())
        #expect(run.status == 74)
        #expect(
            run.errorLines == [
                "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data",
                Self.writeFailure,
            ])
    }

    @Test("watch stops at the first failed write instead of refreshing into the void")
    func watchWriteFailure() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["watch", "BTC", "-e", "bithumb", "-i", "1"], environment: environment(server),
            standardOutput: try devFull())
        #expect(run.status == 74)
        #expect(run.errorLines == [Self.writeFailure])
        #expect(server.requests.count == 1)
    }
}
