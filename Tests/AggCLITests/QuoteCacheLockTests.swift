import AggCore
import AggJSON
import Foundation
import Testing

@testable import AggStore

/// Issue 9, item 11: the quote cache never delays a quote.
@Suite("agg quote while another process writes the database")
struct QuoteCacheLockTests {
    /// Quotes BTC and ETH on the recorded Bithumb into the database at `home`.
    private func quote(home: String, environment: [String: String] = [:]) async throws -> CLIRun {
        await runCLI(
            ["quote", "BTC", "ETH", "-e", "bithumb", "-f", "json"],
            environment: environment.merging(["AGG_HOME": home]) { $1 }, http: try recordedBithumb(),
            registry: bithumbRegistry(), now: Timestamp(millisecondsSince1970: 1_723_104_800_000))
    }

    @Test(
        "the quote comes at once, the cache write is skipped, and only AGG_DEBUG mentions it",
        arguments: [false, true])
    func lockHeld(debug: Bool) async throws {
        try await withTemporaryHome { home async throws in
            let path = home + "/agg.sqlite"
            // A first run creates the database, as any earlier use of agg would have; it is also
            // the unlocked run the locked one is measured against.
            let clock = ContinuousClock()
            let firstStart = clock.now
            let first = try await quote(home: home)
            let unlocked = clock.now - firstStart
            try #require(first.status == 0)
            let expected = first.output
            // Another process holds the write lock for the whole run.
            let writer = try SQLiteConnection.open(path: path)
            try writer.execute("BEGIN IMMEDIATE")
            let start = clock.now
            let run = try await quote(home: home, environment: debug ? ["AGG_DEBUG": "1"] : [:])
            let elapsed = clock.now - start
            try writer.execute("ROLLBACK")

            #expect(run.status == 0)
            #expect(run.output == expected)
            // Not waiting for the lock's five-second timeout (once to open, once to write, as
            // before): the unlocked run's time, measured just now, and half of one wait for noise.
            #expect(elapsed < unlocked + .milliseconds(2500), "\(elapsed) locked, \(unlocked) unlocked")
            if debug {
                #expect(
                    run.errorLines == [
                        "agg: debug: quote cache: \(path) is being written by another process; 2 quotes not cached this time"
                    ])
            } else {
                #expect(run.error == "")
            }
        }
    }

    @Test("favorites list answers at once while another process holds the write lock")
    func favoritesList() async throws {
        try await withTemporaryHome { home async throws in
            let added = await runCLI(["favorites", "add", "BTC"], environment: ["AGG_HOME": home])
            try #require(added.status == 0)
            let clock = ContinuousClock()
            let unlockedStart = clock.now
            let unlocked = await runCLI(["favorites", "list", "-f", "json"], environment: ["AGG_HOME": home])
            let unlockedTime = clock.now - unlockedStart
            try #require(unlocked.output.contains("BTC"))
            let writer = try SQLiteConnection.open(path: home + "/agg.sqlite")
            try writer.execute("BEGIN IMMEDIATE")
            let start = clock.now
            let run = await runCLI(["favorites", "list", "-f", "json"], environment: ["AGG_HOME": home])
            let elapsed = clock.now - start
            try writer.execute("ROLLBACK")
            #expect(run.status == 0)
            #expect(run.output == unlocked.output)
            #expect(run.error == "")
            // The same list unlocked, measured just before, and half of the five-second wait.
            #expect(elapsed < unlockedTime + .milliseconds(2500), "\(elapsed) locked, \(unlockedTime) unlocked")
        }
    }

    @Test("without another writer, AGG_DEBUG says nothing and the quotes are cached")
    func noLock() async throws {
        try await withTemporaryHome { home async throws in
            let run = try await quote(home: home, environment: ["AGG_DEBUG": "1"])
            #expect(run.status == 0)
            #expect(run.error == "")
            let cached = try Store.open(path: home + "/agg.sqlite")
                .cachedQuote(exchange: "bithumb", market: Market(base: "ETH", quote: "KRW"))
            #expect(cached.map { DecimalText.format($0.quote.last) } == "3406000")
        }
    }
}
