import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggStore

/// Issue 20, rule 7: a local store never stops or delays an answer. With another process holding
/// the database's write lock, `agg rates` and `agg compare` print their answer at once (they
/// took 5 s and exit 70, and 15 s, before) and skip storing the rate snapshot; only `AGG_DEBUG`
/// says so.
@Suite("a local store never stops or delays an answer")
struct StoreLockAnswerTests {
    private static let fxBase = "https://open.er-api.com"

    /// The venues answering from their recordings and the FX source answering `day`'s table.
    private static func network(day: Int) throws -> AsyncScriptedHTTPClient {
        let responder = try FixtureResponder(venues: [
            "upbit": "https://api.upbit.com", "coinbase": "https://api.exchange.coinbase.com",
        ])
        let body = try Fixtures.bytes("exchangerate/USD_2024-08-\(day).json")
        return AsyncScriptedHTTPClient { request in
            if request.url.hasPrefix(fxBase) {
                return HTTPResponse(status: 200, headers: [], body: body, url: request.url)
            }
            return try responder.respond(to: request)
        }
    }

    /// `2024-08-<day>` at 06:00 UTC.
    private static func morning(_ day: Int) -> Timestamp {
        Timestamp(secondsSince1970: 1_724_025_600 + Int64(day - 19) * 86_400 + 6 * 3600)
    }

    /// Runs `arguments` while another connection holds the write lock of the database in `home`,
    /// and answers the run, how long it took, and how long the same run takes in a home of its
    /// own that nothing locks (measured just before, so the bound follows the machine's load).
    private static func whileLocked(
        _ arguments: [String], home: String, day: Int, debug: Bool
    ) async throws -> (run: CLIRun, elapsed: Duration, unlocked: Duration) {
        let clock = ContinuousClock()
        let unlocked = try await withTemporaryHome { other async throws in
            let start = clock.now
            _ = await runCLI(
                arguments, environment: ["AGG_HOME": other], http: try network(day: day), now: morning(day))
            return clock.now - start
        }
        let writer = try SQLiteConnection.open(path: home + "/agg.sqlite")
        try writer.execute("BEGIN IMMEDIATE")
        let start = clock.now
        let run = await runCLI(
            arguments, environment: ["AGG_HOME": home].merging(debug ? ["AGG_DEBUG": "1"] : [:]) { $1 },
            http: try network(day: day), now: morning(day))
        let elapsed = clock.now - start
        try writer.execute("ROLLBACK")
        return (run, elapsed, unlocked)
    }

    /// Waiting for the store's five-second busy timeout would add 5 s to the unlocked run; half
    /// of that is left for the load's noise.
    private static let noWait = Duration.milliseconds(2500)

    @Test("agg rates prints the table and exits 0; the snapshot is not stored", arguments: [false, true])
    func rates(debug: Bool) async throws {
        try await withTemporaryHome { home async throws in
            let first = await runCLI(
                ["rates", "-f", "json"], environment: ["AGG_HOME": home], http: try Self.network(day: 19),
                now: Self.morning(19))
            try #require(first.status == 0)
            let (run, elapsed, unlocked) = try await Self.whileLocked(
                ["rates", "--to", "KRW", "-f", "json"], home: home, day: 20, debug: debug)
            #expect(run.status == 0)
            #expect(try run.json()["asOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try run.json()["previousAsOf"].string() == "2024-08-19T00:02:31Z")
            #expect(try run.json()["rates"][0]["change"].string() == "-14.161916")
            #expect(elapsed < unlocked + Self.noWait, "\(elapsed) locked, \(unlocked) unlocked")
            #expect(
                run.errorLines
                    == (debug
                        ? [
                            "agg: debug: rate snapshot: \(home)/agg.sqlite is being written by another process; "
                                + "the USD table of exchangerate as of 2024-08-20T00:02:31.000Z is not stored this time"
                        ] : []))
            #expect(try Store.open(path: home + "/agg.sqlite").snapshotCount(base: "USD") == 1)
        }
    }

    @Test("agg compare prints its comparison at once; the snapshot is not stored", arguments: [false, true])
    func compare(debug: Bool) async throws {
        try await withTemporaryHome { home async throws in
            let arguments = ["compare", "BTC", "-e", "upbit,coinbase", "-f", "json"]
            // The database exists, as after any earlier use of agg.
            _ = try Store.open(path: home + "/agg.sqlite")
            let (run, elapsed, unlocked) = try await Self.whileLocked(arguments, home: home, day: 21, debug: debug)
            #expect(run.status == 0)
            #expect(try run.json()["fx"][0]["rate"].string() == "1331.529034")
            #expect(elapsed < unlocked + Self.noWait, "\(elapsed) locked, \(unlocked) unlocked")
            #expect(
                run.errorLines
                    == (debug
                        ? [
                            "agg: debug: rate snapshot: \(home)/agg.sqlite is being written by another process; "
                                + "the USD table of exchangerate as of 2024-08-21T00:02:31.000Z is not stored this time"
                        ] : []))
            #expect(try Store.open(path: home + "/agg.sqlite").snapshotCount(base: "USD") == 0)
        }
    }
}
