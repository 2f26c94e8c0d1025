import AggCore
import AggJSON
import Foundation
import Testing

@testable import AggPostgres

/// Three recorder processes (Tests/LeaseRecorder, which leases and records as `agg record`
/// does) share one database; one is killed with SIGKILL. Its venues must be taken over within a
/// few intervals, and the rows must show that no two recorders ever held a venue at once.
///
/// It bounds wall-clock time (the takeover deadline), so it runs with the timing suites.
@Suite("PostgreSQL: three recorder processes", .enabled(if: TestDatabase.available, TestDatabase.skipNotice))
struct PostgresRecorderProcessTests {
    static let interval: Int64 = 100
    static let lease: Int64 = 500
    /// How long a recorder leaves its peers to claim their home venues before it takes orphans.
    static let grace: Int64 = 1_500

    @Test("kill -9 one of three recorders: its venues are taken over within a few intervals, nothing is recorded twice")
    func killOneOfThree() async throws {
        let url = try await TestDatabase.freshSchema()
        let store = try await PostgresHistoryStore.open(url)
        let homes = [["bithumb", "upbit"], ["coinone", "korbit"], ["binance", "okx"]]
        let everyVenue = homes.flatMap { $0 }
        var recorders: [Process] = []
        defer {
            for recorder in recorders where recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) }
            for recorder in recorders { recorder.waitUntilExit() }
        }
        let started = milliseconds()
        for (number, home) in homes.enumerated() {
            let others = everyVenue.filter { !home.contains($0) }
            recorders.append(
                try start([
                    url.text, String(number), home.joined(separator: ","), others.joined(separator: ","),
                    String(Self.interval), String(Self.lease), String(Self.grace),
                ]))
        }
        // Every venue recorded by its home recorder.
        let homeRows = Set(homes.enumerated().flatMap { number, home in home.map { "\($0)=\(number)" } })
        try await waitFor("every venue is recorded by its home recorder") {
            let venues = try await TestDatabase.column(store, "SELECT DISTINCT exchange || '=' || last FROM price")
            return homeRows.isSubset(of: venues.compactMap { $0 })
        }
        // Past the grace, every recorder also claims the others' venues each tick, so the
        // takeover waits for nothing but the lease's expiry.
        let graceLeft = started + Self.grace + Self.interval - milliseconds()
        if graceLeft > 0 { try await Task.sleep(for: .milliseconds(graceLeft)) }
        let victim = recorders[0]
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        #expect(victim.terminationReason == .uncaughtSignal)
        let killed = milliseconds()
        // Its venues recorded again by another recorder.
        try await waitFor("the killed recorder's venues are taken over") {
            let takers = try await TestDatabase.column(
                store, "SELECT DISTINCT exchange FROM price WHERE last <> 0 AND exchange IN ('bithumb', 'upbit')")
            return takers.count == 2
        }
        try await Task.sleep(for: .milliseconds(3 * Self.interval))
        for recorder in recorders[1...] { kill(recorder.processIdentifier, SIGKILL) }
        for recorder in recorders[1...] { recorder.waitUntilExit() }

        let rows = try await store.perform { connection throws(PostgresError) in
            try connection.query(
                """
                SELECT exchange, floor(extract(epoch FROM time) * 1000)::int8, last, base_volume
                FROM price ORDER BY exchange, time
                """
            ).values
        }
        var previous: [String: (time: Int64, writer: String, expiry: Int64)] = [:]
        var firstTakeover: [String: Int64] = [:]
        for row in rows {
            let venue = try #require(row[0])
            let time = try #require(row[1].flatMap { Int64($0) })
            let writer = try #require(row[2])
            let expiry = try #require(row[3].flatMap { Int64($0) })
            #expect(time < expiry, "\(venue) at \(time) written outside its writer's lease")
            if let last = previous[venue], last.writer != writer {
                // A new holder's lease starts no earlier than the old one's ends.
                #expect(
                    time >= last.expiry,
                    "\(venue): recorder \(writer) at \(time) overlaps \(last.writer)'s lease to \(last.expiry)")
                if last.writer == "0" && firstTakeover[venue] == nil { firstTakeover[venue] = time - last.expiry }
            }
            previous[venue] = (time, writer, expiry)
        }
        // The kill happened after the victim's last lease was granted, so each of its venues
        // changes hands once that lease expires: within a few intervals of it (about one here;
        // ten allow for a loaded machine).
        for venue in homes[0] {
            let delay = try #require(firstTakeover[venue], "\(venue) was not taken over")
            #expect(
                delay >= 0 && delay <= 10 * Self.interval, "\(venue) taken over \(delay) ms after the lease expired")
        }
        #expect(milliseconds() - killed < 30_000)
    }

    /// Starts the lease recorder with its output going nowhere (a child holding the test
    /// runner's stdout would keep CI waiting).
    private func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// `agg-lease-recorder`, built beside the test bundle.
    static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("agg-lease-recorder"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("agg-lease-recorder"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    private func waitFor(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = milliseconds() + 15_000
        while milliseconds() < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(Self.interval / 2))
        }
        Issue.record("timed out waiting until \(what)")
        throw CancellationError()
    }

    private func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
