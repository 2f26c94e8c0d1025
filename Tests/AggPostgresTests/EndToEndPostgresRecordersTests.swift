import AggCore
import AggTestKit
import Foundation
import Testing

@testable import AggPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// Three `agg record` processes (the real binary: `$AGG_BINARY`, else the one built beside the
/// tests) share one PostgreSQL database; the one holding the venues is killed with SIGKILL.
/// Its venues must be taken over once its lease ends, and the rows must show that no two
/// recorders ever recorded a venue at the same time.
///
/// A tick comes every second and a lease lasts three. The recorders start a third of a tick
/// apart (each once the one before it ticks), so each ticks at its own phase: two of them recording one venue would put two rows
/// closer than a tick apart. It bounds wall-clock time (the takeover), so it runs with the timing
/// suites, and with the end-to-end tests against the release binary.
@Suite(
    "agg record: three recorders on one PostgreSQL database",
    .enabled(if: TestDatabase.available, TestDatabase.skipNotice)
)
struct EndToEndPostgresRecordersTests {
    static let venues = ["bithumb", "upbit", "binance"]
    static let fxSources = ["exchangerate", "frankfurter", "dunamu"]
    static let interval: Int64 = 1_000
    static let lease: Int64 = 3 * interval

    @Test(
        "kill -9 the recorder holding the venues: another takes each over when its lease ends; no venue is recorded twice"
    )
    func killTheHolder() async throws {
        let url = try await TestDatabase.freshSchema()
        let store = try await PostgresHistoryStore.open(url)
        let server = try FixtureServer(venues: Self.venues + Self.fxSources)
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agg-recorders-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = server.environment
        environment["AGG_HOME"] = home

        var recorders: [Process] = []
        defer {
            for recorder in recorders where recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) }
            for recorder in recorders { recorder.waitUntilExit() }
        }
        // The first to start holds every venue and FX source; each of the others starts once
        // the one before it is ticking, a third of a tick later.
        let everything = Set(Self.venues + Self.fxSources)
        var outputs: [PipeText] = []
        for number in 0..<3 {
            if number > 0 { try await Task.sleep(for: .milliseconds(Self.interval / 3)) }
            let (process, output, error) = try AggBinary.start(
                ["record", "--exchange", Self.venues.joined(separator: ","), "--interval", "1", "--store", url.text],
                environment: environment)
            recorders.append(process)
            outputs += [PipeText(output), PipeText(error)]
            if number == 0 {
                let first = process.processIdentifier
                let holder = try await waitFor("the first recorder holds every venue") { () async throws -> Int32? in
                    let holders = try await leaseHolders(store, folderOwner: first)
                    guard Set(holders.keys) == everything, Set(holders.values).count == 1 else { return nil }
                    return holders.values.first
                }
                #expect(holder == process.processIdentifier)
            } else {
                let text = outputs[2 * number]
                let ticking = await text.wait(seconds: 20) { $0.contains(" held elsewhere\n") }
                #expect(ticking, "recorder \(number) did not tick: \(text.value) \(outputs[2 * number + 1].value)")
                // It found every venue and FX source held, and so recorded nothing.
                #expect(
                    text.value.contains(
                        ": 0 rows (0 prices, 0 rates, 0 premiums), 0 answered, 0 failed, 0 skipped, 6 held elsewhere\n")
                )
            }
        }
        let pids = recorders.map { $0.processIdentifier }
        try await waitFor("every venue has a price recorded") { () async throws -> Bool? in
            let recorded = try await TestDatabase.column(store, "SELECT DISTINCT exchange FROM price")
            return Set(recorded.compactMap { $0 }) == Set(Self.venues) ? true : nil
        }

        let victim = recorders[0]
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        #expect(victim.terminationReason == .uncaughtSignal)
        let killed = milliseconds()

        let survivors = Set(pids[1...])
        try await waitFor("the survivors hold every venue and record each") { () async throws -> Bool? in
            let holders = try await leaseHolders(store, folderOwner: pids[0])
            guard Set(holders.keys) == everything, Set(holders.values).isSubset(of: survivors) else { return nil }
            let recorded = try await TestDatabase.column(
                store, "SELECT DISTINCT exchange FROM price WHERE time >= to_timestamp($1::float8 / 1000)",
                [String(killed)])
            return Set(recorded.compactMap { $0 }) == Set(Self.venues) ? true : nil
        }
        try await Task.sleep(for: .milliseconds(2 * Self.interval))

        // SIGTERM: each survivor finishes its tick, gives its leases back and exits 0.
        for survivor in recorders[1...] { kill(survivor.processIdentifier, SIGTERM) }
        for survivor in recorders[1...] {
            survivor.waitUntilExit()
            #expect(survivor.terminationReason == .exit)
            #expect(survivor.terminationStatus == 0)
        }
        #expect(try await leaseHolders(store, folderOwner: 0).isEmpty)

        for venue in Self.venues {
            let times = try await TestDatabase.column(
                store,
                "SELECT DISTINCT floor(extract(epoch FROM time) * 1000)::int8 FROM price WHERE exchange = $1 ORDER BY 1",
                [venue]
            ).compactMap { $0.flatMap { Int64($0) } }
            let before = times.filter { $0 < killed }
            let after = times.filter { $0 >= killed }
            #expect(before.count >= 1, "\(venue): nothing recorded before the kill")
            #expect(after.count >= 1, "\(venue): nothing recorded after the kill")
            // One recorder at a time: consecutive ticks at least most of a tick apart (two
            // recorders a third of a tick out of phase would be closer).
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(later - earlier >= Self.interval * 4 / 5, "\(venue): rows at \(earlier) and \(later)")
            }
            // The takeover waits for the killed recorder's lease, from its last tick, and not
            // much longer: a tick the killed recorder had claimed but not stored, the survivor's phase, and
            // room for a loaded machine.
            if let last = before.last, let next = after.first {
                let gap = next - last
                #expect(gap >= Self.lease, "\(venue) taken over \(gap) ms after the last tick, inside the lease")
                #expect(gap <= Self.lease + 4 * Self.interval, "\(venue) taken over \(gap) ms after the last tick")
            }
        }
    }

    /// Who holds each lease: the holder's process id (`hostname:pid`).
    /// Each leased venue's recorder, by process id. The recorders share one data folder: the
    /// first holds its `recorder-id` and leases as `host:ID` (`folderOwner`), the others as
    /// `host:ID:PID`.
    private func leaseHolders(_ store: PostgresHistoryStore, folderOwner: Int32) async throws -> [String: Int32] {
        let rows = try await store.perform { connection throws(PostgresError) in
            try connection.query("SELECT venue, holder FROM venue_lease").values
        }
        var holders: [String: Int32] = [:]
        for row in rows {
            let venue = try #require(row[0])
            let holder = try #require(row[1])
            let parts = holder.split(separator: ":")
            if parts.count == 2, parts[1].count == 32 {
                holders[venue] = folderOwner
                continue
            }
            guard parts.count == 3, let pid = Int32(String(parts[2])) else {
                Issue.record("holder \(holder) is neither host:ID nor host:ID:PID")
                continue
            }
            holders[venue] = pid
        }
        return holders
    }

    /// Waits up to 20 s for `condition` to answer a value.
    @discardableResult
    private func waitFor<Value>(_ what: String, _ condition: () async throws -> Value?) async throws -> Value {
        let deadline = milliseconds() + 20_000
        while milliseconds() < deadline {
            if let value = try await condition() { return value }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("timed out waiting until \(what)")
        throw CancellationError()
    }

    private func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
