import AggCore
import AggStore
import AggTestKit
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `agg record` binary against the loopback fixture server: SIGTERM finishes the tick
/// and exits 0; kill -9 leaves an intact database holding every completed tick; `agg history`
/// reads back what was recorded.
@Suite("agg record end to end")
struct EndToEndRecordTests {
    static let venues = ["bithumb", "upbit", "binance"]
    /// Every FX source is asked, whatever --exchange names.
    static let fxSources = ["exchangerate", "frankfurter", "dunamu"]

    /// Starts `agg record` on the three venues, one tick a second, with a fresh home.
    func start(_ server: FixtureServer, home: String) throws -> (Process, PipeText, PipeText) {
        var environment = server.environment
        environment["AGG_HOME"] = home
        let (process, output, error) = try AggBinary.start(
            ["record", "--exchange", Self.venues.joined(separator: ","), "--interval", "1"], environment: environment)
        return (process, PipeText(output), PipeText(error))
    }

    /// What one recording left: the process after its exit, its output and errors, its home.
    struct Recording {
        var process: Process
        var output: PipeText
        var error: PipeText
        var home: String
    }

    /// Runs `agg record` against the fixture server in a fresh home until it reports `ticks`
    /// ticks, sends it `signal` and waits for its exit; `body` reads what it left before the
    /// home is removed.
    func record(untilTicks ticks: Int, then signal: Int32, _ body: (Recording) async throws -> Void) async throws {
        let server = try FixtureServer(venues: Self.venues + Self.fxSources)
        defer { server.stop() }
        let home = unusedTemporaryPath()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let (process, output, error) = try start(server, home: home)
        #expect(await output.wait(seconds: 10) { self.tickLines($0) >= ticks })
        kill(process.processIdentifier, signal)
        await waitForExit(process)
        try await body(Recording(process: process, output: output, error: error, home: home))
    }

    func waitForExit(_ process: Process) async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }

    /// The prices each reported tick stored, from its progress line ("... (1340 prices, ...").
    func reportedPrices(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains(" tick "), let open = line.firstIndex(of: "(") else { return nil }
            return Int(line[line.index(after: open)...].prefix { $0.isNumber })
        }
    }

    func tickLines(_ output: String) -> Int {
        output.split(separator: "\n").filter { $0.contains(" tick ") }.count
    }

    @Test("SIGTERM finishes the tick in flight and exits 0; every reported tick is stored; history reads it")
    func sigterm() async throws {
        try await record(untilTicks: 1, then: SIGTERM) { recording in
            let (process, output, error, home) = (recording.process, recording.output, recording.error, recording.home)
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
            _ = await error.wait(seconds: 2) { $0.contains("stopped after") }
            let ticks = tickLines(output.value)
            #expect(ticks >= 1)
            #expect(error.value.contains("agg: record: stopped after \(ticks) tick\(ticks == 1 ? "" : "s"): "))
            let store = try Store.open(path: home + "/agg.sqlite")
            let reported = reportedPrices(output.value)
            #expect(reported.count == ticks)
            #expect(try store.integer("SELECT count(*) FROM price_point") == Int64(reported.reduce(0, +)))
            #expect(try store.integer("SELECT count(*) FROM venue_lease") == 0)
            let bithumb = try store.integer(
                "SELECT count(*) FROM price_point WHERE exchange = 'bithumb' AND base = 'BTC'")

            var environment = ["AGG_HOME": home]
            environment["TZ"] = "UTC"
            let history = try await AggBinary.run(
                ["history", "BTC", "--exchange", "bithumb", "--format", "csv"], environment: environment)
            #expect(history.status == 0)
            let rows = history.output.split(separator: "\n")
            #expect(rows.first == "time,exchange,market,last,receivedAt,ageSeconds")
            #expect(Int64(rows.count - 1) == bithumb)
            #expect(rows.count > 1)
            // Each price keeps when agg received it (during its tick, so not before the tick's
            // time) and its age when recorded, three decimals.
            for row in rows.dropFirst() {
                let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                #expect(cells.count == 6, "\(row)")
                guard cells.count == 6 else { continue }
                #expect(cells[1...3] == ["bithumb", "BTC/KRW", "80630000"], "\(row)")
                #expect(cells[4].count == 24 && cells[4] >= cells[0], "\(row)")
                #expect(cells[5].wholeMatch(of: /[0-9]+\.[0-9]{3}/) != nil, "\(row)")
            }
        }
    }

    @Test("kill -9 mid-run: the database passes integrity_check and holds whole ticks only, every reported one")
    func killNine() async throws {
        try await record(untilTicks: 2, then: SIGKILL) { recording in
            let (process, output, home) = (recording.process, recording.output, recording.home)
            #expect(process.terminationReason == .uncaughtSignal)
            let reported = reportedPrices(output.value)
            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(try store.integrityCheck() == "ok")
            let stored = try store.integers("SELECT count(*) FROM price_point GROUP BY time ORDER BY time").map(
                Int.init)
            // Whole ticks only: every reported tick as reported, and perhaps one committed just
            // before the kill, not yet reported.
            let times = stored.count
            #expect(Array(stored.prefix(reported.count)) == reported)
            #expect(times == reported.count || times == reported.count + 1)
        }
    }
}
