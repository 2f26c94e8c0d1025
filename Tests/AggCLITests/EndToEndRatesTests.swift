import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The recorded USD answer of `date` (`2024-08-19`), as text.
private func usdDay(_ date: String) throws -> String {
    String(decoding: try Fixtures.bytes("exchangerate/USD_\(date).json"), as: UTF8.self)
}

/// The 2024-08-21 rates published `seconds` after their recorded update time, so that every
/// run of a test has a snapshot of its own to write.
private func usdDay3(plus seconds: Int64) throws -> String {
    let marker = "\"time_last_update_unix\":1724198551"
    let text = try usdDay("2024-08-21")
    try #require(text.contains(marker))
    return text.replacingOccurrences(of: marker, with: "\"time_last_update_unix\":\(1_724_198_551 + seconds)")
}

/// A loopback server answering every request with `body`, remembering when it first answered.
private final class RatesServer: Sendable {
    let server: LoopbackServer

    init(_ body: String, delay: Double = 0) throws {
        let answered = Answered()
        server = try LoopbackServer { _ in
            answered.mark()
            return LoopbackReply.json(body).delayed(by: delay)
        }
        self.answered = answered
    }

    private let answered: Answered

    /// When the request arrived and the answer went out, if it has.
    var firstAnswer: ContinuousClock.Instant? { answered.first }

    /// `AGG_EXCHANGERATE_URL` and `AGG_HOME` for an `agg` using this server and `home`.
    func environment(home: String) -> [String: String] {
        ["AGG_EXCHANGERATE_URL": server.baseURL, "AGG_HOME": home, "NO_COLOR": "1"]
    }
}

/// The first time a handler ran, across the server's threads.
private final class Answered: Sendable {
    private let time = Mutex<ContinuousClock.Instant?>(nil)

    func mark() {
        time.withLock { $0 = $0 ?? ContinuousClock.now }
    }

    var first: ContinuousClock.Instant? { time.withLock { $0 } }
}

/// How a run that may have been killed ended.
private struct Ending {
    var status: Int32
    /// Whether a signal (our SIGKILL) ended it.
    var signaled: Bool
    var error: String
    /// From the server's answer to the end of the process, when there was an answer.
    var tail: Duration?
}

/// Runs `agg` and, `offset` after `server` has answered it, sends SIGKILL if the process is
/// still running. Output must stay small (it is read once the process has ended).
///
/// The watching is done on a thread of its own, polling every 50 µs, so that a busy
/// cooperative pool cannot delay the kill past the moment it aims at.
private func runKilled(
    _ arguments: [String], server: RatesServer, home: String, offset: Duration? = nil
) async throws -> Ending {
    let (process, _, error) = try AggBinary.start(arguments, environment: server.environment(home: home))
    let ended: ContinuousClock.Instant = await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            if let offset {
                let deadline = ContinuousClock.now + .seconds(10)
                while server.firstAnswer == nil, process.isRunning, ContinuousClock.now < deadline { usleep(50) }
                if let answered = server.firstAnswer {
                    while process.isRunning, ContinuousClock.now < answered + offset { usleep(50) }
                }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            continuation.resume(returning: ContinuousClock.now)
        }
    }
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return Ending(
        status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, error: text,
        tail: server.firstAnswer.map { $0.duration(to: ended) })
}

/// Runs `agg` to the end against a server answering with `body`.
private func run(_ arguments: [String], serving body: String, home: String) async throws -> AggBinary.Run {
    let server = try RatesServer(body)
    let result = try await AggBinary.run(arguments, environment: server.environment(home: home))
    withExtendedLifetime(server) {}
    return result
}

private func json(_ run: AggBinary.Run) throws -> JSONCursor {
    JSONCursor(try JSONParser.parse(run.output))
}

/// The real `agg` binary, over libcurl, against a loopback server standing in for
/// open.er-api.com, with processes sharing one database.
@Suite("agg rates end to end")
struct EndToEndRatesTests {
    @Test("day 1 then day 2 through the binary: the request, no trend, then ▲ ▼ in the table")
    func twoDays() async throws {
        try await withTemporaryHome { home async throws in
            let first = try RatesServer(try usdDay("2024-08-19"))
            let run = try await AggBinary.run(
                ["rates", "-f", "json", "--to", "KRW"], environment: first.environment(home: home))
            #expect(run.status == 0)
            #expect(run.error == "")
            #expect(first.server.requests.map(\.path) == ["/v6/latest/USD"])
            #expect(first.server.requests.first?.header("User-Agent") == "agg/\(AggVersion.current)")
            #expect(try json(run)["rates"][0]["trend"].value == .null)

            let second = try RatesServer(try usdDay("2024-08-20"))
            let table = try await AggBinary.run(
                ["rates", "-f", "table", "--to", "KRW,RUB,EUR"], environment: second.environment(home: home))
            #expect(table.status == 0)
            #expect(second.server.requests.map(\.path) == ["/v6/latest/USD"])
            #expect(
                table.output == """
                    CODE          RATE         CHANGE
                    EUR       0.901844      -0.005695
                    KRW   1,335.841127  ▼  -14.161916
                    RUB      91.454471  ▲   +2.076148

                    USD base, as of 2024-08-20 00:02:31 UTC; next update 2024-08-21 00:06:21 UTC.
                    Compared with 2024-08-19 00:02:31 UTC; ▲ ▼ mark changes of more than 0.01 either way.
                    Rates By Exchange Rate API (https://www.exchangerate-api.com)

                    """)
        }
    }

    @Test("six rates processes at once on a fresh database, then six more with favorites added meanwhile")
    func concurrentProcesses() async throws {
        try await withTemporaryHome { home async throws in
            let first = try RatesServer(try usdDay("2024-08-19"))
            let firstEnvironment = first.environment(home: home)
            let firstRuns = try await withThrowingTaskGroup(of: AggBinary.Run.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await AggBinary.run(["rates", "-f", "json"], environment: firstEnvironment) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(firstRuns.map(\.status) == Array(repeating: 0, count: 6), "\(firstRuns.map(\.error))")
            #expect(first.server.requests.count == 6)
            for run in firstRuns {
                #expect(try json(run)["rates"].elements().count == 162)
                #expect(try json(run)["previousAsOf"].optionalString() == nil)
            }

            let second = try RatesServer(try usdDay("2024-08-20"))
            let secondEnvironment = second.environment(home: home)
            let secondRuns = try await withThrowingTaskGroup(of: (String, AggBinary.Run).self) { group in
                for index in 0..<6 {
                    group.addTask {
                        ("rates", try await AggBinary.run(["rates", "-f", "json"], environment: secondEnvironment))
                    }
                    if index % 2 == 0 {
                        let code = ["KRW", "JPY", "EUR"][index / 2]
                        group.addTask {
                            let arguments = ["favorites", "add", code, "--currency", "-f", "json"]
                            return ("favorites", try await AggBinary.run(arguments, environment: secondEnvironment))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(secondRuns.count == 9)
            #expect(second.server.requests.count == 6)
            #expect(secondRuns.allSatisfy { $0.1.status == 0 }, "\(secondRuns.map(\.1.error))")
            for (kind, run) in secondRuns where kind == "rates" {
                let answer = try json(run)
                #expect(try answer["previousAsOf"].string() == "2024-08-19T00:02:31Z")
                let krw = try answer["rates"].elements().first { try $0["code"].string() == "KRW" }
                #expect(try krw?["trend"].string() == "down")
            }

            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(try store.integrityCheck() == "ok")
            #expect(try store.snapshotCount(base: "USD") == 2)
            #expect(try store.favorites(kind: .currency) == ["EUR", "JPY", "KRW"])
            // With the favorites in, they lead the listing.
            let ordered = try await AggBinary.run(["rates", "-f", "json"], environment: secondEnvironment)
            #expect(
                try json(ordered)["rates"].elements().prefix(3).map { try $0["code"].string() } == [
                    "EUR", "JPY", "KRW",
                ])
        }
    }

    @Test("writers killed with SIGKILL just after the answer: integrity_check ok, nothing committed lost")
    func killedWriters() async throws {
        try await withTemporaryHome { home async throws in
            let keepAll = ["rates", "-f", "csv", "--to", "KRW", "--keep", "100"]
            // Days 1 and 2 are committed before anything is killed.
            #expect(try await run(keepAll, serving: try usdDay("2024-08-19"), home: home).status == 0)
            let setup = try await runKilled(keepAll, server: try RatesServer(try usdDay("2024-08-20")), home: home)
            #expect(setup.status == 0 && !setup.signaled, "\(setup.error)")

            // How long a process runs once it has its answer (decoding, then the write): the
            // median of three whole runs, about 10 ms on an idle machine.
            let day3 = Timestamp(secondsSince1970: 1_724_198_551)
            var completed: [Timestamp] = []
            var tails: [Duration] = []
            for extra in Int64(100)..<103 {
                let ending = try await runKilled(keepAll, server: try RatesServer(try usdDay3(plus: extra)), home: home)
                #expect(ending.status == 0 && !ending.signaled, "\(ending.error)")
                tails.append(try #require(ending.tail))
                completed.append(Timestamp(millisecondsSince1970: day3.millisecondsSince1970 + extra * 1000))
            }
            let tail = tails.sorted()[1]

            // Each later run writes a snapshot of its own (162 rates in one transaction) and is
            // killed between 0 and 1.5 times that tail after its answer: before, during and
            // after the write.
            var killed = 0
            for step in 0..<16 {
                let server = try RatesServer(try usdDay3(plus: Int64(step)))
                let ending = try await runKilled(
                    keepAll, server: server, home: home, offset: tail * 1.5 * (Double(step) / 15))
                if ending.signaled {
                    #expect(ending.status == SIGKILL)
                    killed += 1
                } else {
                    #expect(ending.status == 0, "\(ending.error)")
                    completed.append(Timestamp(millisecondsSince1970: day3.millisecondsSince1970 + Int64(step) * 1000))
                }
            }
            #expect(killed > 0)

            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(try store.integrityCheck() == "ok")
            // Walk every stored snapshot, newest first: each is whole, none half written.
            var stored: [Timestamp] = []
            var next = try store.latestSnapshot(base: "USD")
            while let snapshot = next {
                #expect(snapshot.rates.count == 162, "\(snapshot.asOf)")
                stored.append(snapshot.asOf)
                next = try store.snapshot(base: "USD", olderThan: snapshot.asOf)
            }
            #expect(try store.snapshotCount(base: "USD") == stored.count)
            // What was committed is there: the two days before, and every run that finished.
            #expect(
                stored.suffix(2) == [
                    Timestamp(secondsSince1970: 1_724_112_151), Timestamp(secondsSince1970: 1_724_025_751),
                ])
            #expect(Set(completed).isSubset(of: Set(stored)))
            #expect(try store.snapshot(base: "USD", olderThan: day3)?.rates["KRW"]?.description == "1335.841127")

            // And the next run works as usual.
            let after = try await run(keepAll + ["-f", "json"], serving: try usdDay("2024-08-21"), home: home)
            #expect(after.status == 0)
            #expect(try json(after)["previousAsOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try store.integrityCheck() == "ok")
        }
    }

    @Test("a process killed while it waits for a slow provider leaves the database as it was")
    func killedWhileWaiting() async throws {
        try await withTemporaryHome { home async throws in
            #expect(try await run(["rates", "-f", "json"], serving: try usdDay("2024-08-19"), home: home).status == 0)
            let slow = try RatesServer(try usdDay("2024-08-20"), delay: 5)
            let ending = try await runKilled(
                ["rates", "-f", "json"], server: slow, home: home, offset: .milliseconds(50))
            #expect(ending.signaled)
            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(try store.integrityCheck() == "ok")
            #expect(try store.snapshotCount(base: "USD") == 1)
            #expect(try store.latestSnapshot(base: "USD")?.rates["KRW"]?.description == "1350.003043")
        }
    }

    @Test(
        "a database file that is not a database: exit 70, one line naming it, no request; quote still works",
        arguments: ["random", "truncated"])
    func brokenDatabase(kind: String) async throws {
        try await withTemporaryHome { home async throws in
            let server = try RatesServer(try usdDay("2024-08-19"))
            let path = home + "/agg.sqlite"
            if kind == "random" {
                var generator = SystemRandomNumberGenerator()
                let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            } else {
                #expect(
                    try await AggBinary.run(["rates", "-f", "json"], environment: server.environment(home: home)).status
                        == 0)
                // Recent writes live in agg.sqlite-wal until a checkpoint: move them into the
                // file first, so that cutting the file short loses data.
                try Store.open(path: path).checkpoint()
                #expect(truncate(path, 4096) == 0)
            }
            let requestsBefore = server.server.requests.count
            for arguments in [["rates", "-f", "json"], ["favorites", "list"], ["favorites", "add", "KRW"]] {
                let run = try await AggBinary.run(arguments, environment: server.environment(home: home))
                #expect(run.status == 70, "\(arguments)")
                #expect(run.errorLines.count == 1)
                #expect(run.error.hasPrefix("agg: database: cannot open \(path): "))
                #expect(run.output.isEmpty)
            }
            #expect(server.server.requests.count == requestsBefore)
            let bithumb = try FixtureServer(venues: ["bithumb"])
            let quote = try await AggBinary.run(
                ["quote", "BTC", "-e", "bithumb", "-f", "json"],
                environment: bithumb.environment.merging(["AGG_HOME": home]) { $1 })
            #expect(quote.status == 0)
            #expect(quote.error == "")
        }
    }

    @Test("an AGG_HOME that cannot be made: exit 70 and one line naming the path, no request")
    func unusableHome() async throws {
        try await withTemporaryHome { folder async throws in
            let server = try RatesServer(try usdDay("2024-08-19"))
            let file = folder + "/file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            var cases: [(home: String, line: String)] = [
                (
                    file + "/agg",
                    "agg: database: cannot create directory \(file)/agg for \(file)/agg/agg.sqlite: \(file) is not a directory"
                ),
                (
                    file,
                    "agg: database: cannot create directory \(file) for \(file)/agg.sqlite: \(file) is not a directory"
                ),
                ("/proc/agg-\(UUID().uuidString)", "/agg.sqlite: "),
            ]
            if getuid() != 0 {
                // Permissions bind only users other than root.
                let locked = folder + "/locked"
                try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
                #expect(chmod(locked, 0o500) == 0)
                cases.append((locked + "/agg", "Permission denied"))
            }
            for (home, line) in cases {
                let run = try await AggBinary.run(["rates", "-f", "json"], environment: server.environment(home: home))
                #expect(run.status == 70, "\(home)")
                #expect(run.errorLines.count == 1)
                #expect(run.error.contains(home))
                #expect(run.error.contains(line), "\(run.error)")
            }
            #expect(server.server.requests.isEmpty)
        }
    }
}
