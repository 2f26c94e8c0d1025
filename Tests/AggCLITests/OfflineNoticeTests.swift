import AggTestKit
import AggVenues
import Foundation
import Testing

@testable import AggCLI

/// `--offline` says what each venue answers from, as its `routes.json` states it: sample data is
/// never announced as recorded.
@Suite("the --offline notice")
struct OfflineNoticeTests {
    @Test(
        "one exact line per venue, from the data its routes.json declares",
        arguments: [
            ("okx", "agg: offline: okx answers from sample data dated 2024-08-08T08:12:15Z"),
            (
                "binance",
                "agg: offline: binance answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data"
            ),
            (
                "bithumb",
                "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data"
            ),
        ])
    func shipped(venue: String, line: String) async {
        let run = await runCLI(["quote", "BTC", "-e", venue, "--offline", "-f", "csv"], registry: .standard)
        #expect(run.status == 0)
        #expect(run.errorLines == [line])
    }

    @Test("a venue whose every answer is recorded is a recorded snapshot, with nothing added")
    func recorded() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("agg-notice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: fixtures) }
        let bithumb = fixtures.appendingPathComponent("bithumb")
        try FileManager.default.copyItem(at: Fixtures.directory.appendingPathComponent("bithumb"), to: bithumb)
        let routes = bithumb.appendingPathComponent("routes.json")
        let text = try String(contentsOf: routes, encoding: .utf8)
        let recorded = text.replacingOccurrences(of: #""data": "mixed""#, with: #""data": "recorded""#)
        try #require(recorded != text)
        try recorded.write(to: routes, atomically: true, encoding: .utf8)
        let run = await runCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "csv"], environment: ["AGG_FIXTURES": fixtures.path])
        #expect(run.status == 0)
        #expect(run.errorLines == ["agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z"])
    }
}
