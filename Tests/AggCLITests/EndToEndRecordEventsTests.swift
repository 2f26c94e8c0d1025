import AggTestKit
import Foundation
import Glibc
import Testing

/// `agg record --events` as the built binary against the fixture server, whose market lists,
/// warnings, notices and transfer status change between two versions (`useNextVersions`): the
/// first run is the baseline, each change is stored once, across restarts, a `kill -9` and two
/// recorders on one database.
@Suite("agg record --events: the binary, fixtures that change", .serialized)
struct EndToEndRecordEventsTests {
    /// The changes between the fixtures' two versions, as `venue kind symbol network` (the venue
    /// sources' own tests, UpbitEventsTests.secondVersion and BithumbEventsTests.secondVersions,
    /// hold the same list).
    static let expected: Set<String> = [
        "upbit caution_on ETH -", "upbit caution_off XRP -", "upbit listed ADA -", "upbit delisted SOL -",
        "upbit warning_off GRS -",
        "bithumb listed DOGE -", "bithumb delisted SOL -", "bithumb warning_on DOGE -", "bithumb warning_off XRP -",
        "bithumb caution_on BTC -", "bithumb caution_off XRP -", "bithumb notice - -",
        "bithumb deposit_open XRP XRP", "bithumb withdraw_closed BTC BTC",
    ]

    private static let record = [
        "record", "BTC", "--events", "--exchange", "upbit,bithumb", "--interval", "5s", "--quiet",
    ]

    /// The stored events as `venue kind symbol network`, one string each (a repeat stays a repeat).
    private func events(_ environment: [String: String]) async throws -> [String] {
        let run = try await AggBinary.run(["events", "--since", "1d", "-f", "json"], environment: environment)
        try #require(run.status == 0, "agg events: \(run.error)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        return rows.map { row in
            ["venue", "kind", "symbol", "network"].map { (row[$0] as? String) ?? "-" }.joined(separator: " ")
        }.sorted()
    }

    private func recordOnce(_ environment: [String: String]) async throws {
        let run = try await AggBinary.run(Self.record + ["--count", "1"], environment: environment)
        #expect(run.status == 0, "agg record: \(run.error)")
    }

    @Test("the first run is the baseline; each change is stored once, again after a restart and a kill -9")
    func onceAcrossRestarts() async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        let environment = try fixtures.privateEnvironment()
        try await recordOnce(environment)
        #expect(try await events(environment) == [])

        fixtures.useNextVersions()
        try await recordOnce(environment)
        let stored = try await events(environment)
        #expect(stored.count == Self.expected.count)
        #expect(Set(stored) == Self.expected)

        // A restart observes the same state again: nothing new.
        try await recordOnce(environment)
        #expect(try await events(environment) == stored)

        // A recorder killed with SIGKILL while it runs, then started again: still each change once.
        // Its tick lines (no --quiet) say when it has observed the sources at least once.
        let (process, output, _) = try AggBinary.start(
            Self.record.filter { $0 != "--quiet" }, environment: environment)
        let lines = PipeText(output)
        let ticked = await lines.wait(seconds: 60) { $0.split(separator: "\n").count >= 2 }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(ticked)
        try await recordOnce(environment)
        #expect(try await events(environment) == stored)
    }

    @Test("two recorders on one database, started together on the changed fixtures, store each change once")
    func twoRecorders() async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        let environment = try fixtures.privateEnvironment()
        try await recordOnce(environment)
        fixtures.useNextVersions()
        async let first = AggBinary.run(Self.record + ["--count", "1"], environment: environment)
        async let second = AggBinary.run(Self.record + ["--count", "1"], environment: environment)
        let runs = try await [first, second]
        for run in runs { #expect(run.status == 0, "agg record: \(run.error)") }
        let stored = try await events(environment)
        #expect(stored.count == Self.expected.count)
        #expect(Set(stored) == Self.expected)
    }
}
