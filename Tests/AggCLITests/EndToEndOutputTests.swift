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
        #expect(run.output == Self.fullTable)
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count > 80 })
    }

    @Test("an explicit $COLUMNS still sets the width of a table in a pipe")
    func columnsInPipe() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "XRP", "SHIB", "-e", "bithumb", "-f", "table"],
            environment: environment(server, ["COLUMNS": "80"]))
        #expect(run.status == 0)
        #expect(
            run.output.split(separator: "\n").first
                == "EXCHANGE  MARKET          LAST       24H        HIGH                VOLUME")
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }
}
