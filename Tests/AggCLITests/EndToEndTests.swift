import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment of a spawned `agg`: its own database folder and recorded answers, nothing
/// inherited from the test runner.
private func environment(home: String, fixtures: FixtureCopy) -> [String: String] {
    ["AGG_HOME": home, "AGG_FIXTURES": fixtures.directory, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
}

private func rates(_ run: ProcessRun) throws -> JSONCursor {
    JSONCursor(try JSONParser.parse(run.output))
}

/// `agg` processes sharing one database: concurrent runs, kills, broken files. These run the
/// real executable with `--offline` answers (a copy of Fixtures/ whose routes pick the day).
@Suite("agg processes sharing a database")
struct EndToEndStoreTests {
    @Test("six rates processes at once on a fresh database, then six more with favorites added meanwhile")
    func concurrentProcesses() async throws {
        try await withTemporaryHome { folder async throws in
            let home = folder + "/home"
            let fixtures = try FixtureCopy(in: folder)
            let env = environment(home: home, fixtures: fixtures)

            try fixtures.serve(usdDay: "2024-08-19")
            let first = try await withThrowingTaskGroup(of: ProcessRun.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await AggExecutable.run(["rates", "--offline", "-f", "json"], environment: env)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(first.map(\.status) == Array(repeating: 0, count: 6), "\(first.map(\.error))")
            for run in first {
                #expect(try rates(run)["rates"].elements().count == 162)
                #expect(try rates(run)["previousAsOf"].optionalString() == nil)
            }

            try fixtures.serve(usdDay: "2024-08-20")
            let second = try await withThrowingTaskGroup(of: (String, ProcessRun).self) { group in
                for index in 0..<6 {
                    group.addTask {
                        ("rates", try await AggExecutable.run(["rates", "--offline", "-f", "json"], environment: env))
                    }
                    if index % 2 == 0 {
                        group.addTask {
                            let code = ["KRW", "JPY", "EUR"][index / 2]
                            return (
                                "favorites",
                                try await AggExecutable.run(
                                    ["favorites", "add", code, "--currency", "-f", "json"], environment: env)
                            )
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(second.count == 9)
            #expect(second.allSatisfy { $0.1.status == 0 && !$0.1.signaled }, "\(second.map(\.1.error))")
            for (kind, run) in second where kind == "rates" {
                let json = try rates(run)
                #expect(try json["previousAsOf"].string() == "2024-08-19T00:02:31Z")
                let krw = try json["rates"].elements().first { try $0["code"].string() == "KRW" }
                #expect(try krw?["trend"].string() == "down")
            }

            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(try store.integrityCheck() == "ok")
            #expect(try store.snapshotCount(base: "USD") == 2)
            #expect(try store.favorites(kind: .currency) == ["EUR", "JPY", "KRW"])
            // With the favorites in, they lead the listing.
            let ordered = try await AggExecutable.run(["rates", "--offline", "-f", "json"], environment: env)
            #expect(
                try Array(rates(ordered)["rates"].elements().prefix(3).map { try $0["code"].string() }) == [
                    "EUR", "JPY", "KRW",
                ])
        }
    }

    @Test(
        "writers killed with SIGKILL at staggered moments: the database opens, passes integrity_check, loses nothing committed"
    )
    func killedWriters() async throws {
        try await withTemporaryHome { folder async throws in
            let home = folder + "/home"
            let fixtures = try FixtureCopy(in: folder)
            let env = environment(home: home, fixtures: fixtures)
            let keepAll = ["rates", "--offline", "-f", "json", "--keep", "100"]
            var duration = Duration.zero
            for day in ["2024-08-19", "2024-08-20"] {
                try fixtures.serve(usdDay: day)
                let start = ContinuousClock.now
                #expect(try await AggExecutable.run(keepAll, environment: env).status == 0)
                duration = ContinuousClock.now - start
            }

            // Each run writes a snapshot of its own (162 rates in one transaction, its last
            // step) and is killed between 0 and 1.5 times the length of a whole run (measured
            // just above, about 20 ms on an idle machine), so kills land before, during and
            // after the write.
            let day3 = Timestamp(secondsSince1970: 1_724_198_551)
            var completed: [Timestamp] = []
            var killed = 0
            for step in 0..<16 {
                try fixtures.serve(day3Plus: Int64(step))
                let run = try await AggExecutable.run(
                    keepAll, environment: env, killAfter: duration * 1.5 * (Double(step) / 15))
                if run.signaled {
                    #expect(run.status == SIGKILL)
                    killed += 1
                } else {
                    #expect(run.status == 0, "\(run.error)")
                    completed.append(Timestamp(millisecondsSince1970: day3.millisecondsSince1970 + Int64(step) * 1000))
                }
            }
            #expect(killed > 0)

            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(try store.integrityCheck() == "ok")
            // Walk every stored snapshot, newest first: each is whole, none is half written.
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
            try fixtures.serve(usdDay: "2024-08-21")
            let after = try await AggExecutable.run(keepAll, environment: env)
            #expect(after.status == 0)
            #expect(try rates(after)["previousAsOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try store.integrityCheck() == "ok")
        }
    }

    @Test(
        "a database file that is not a database: exit 70 and one line naming it; quote still works",
        arguments: ["random", "truncated"])
    func brokenDatabase(kind: String) async throws {
        try await withTemporaryHome { folder async throws in
            let home = folder + "/home"
            let fixtures = try FixtureCopy(in: folder)
            try fixtures.serve(usdDay: "2024-08-19")
            let env = environment(home: home, fixtures: fixtures)
            let path = home + "/agg.sqlite"
            if kind == "random" {
                try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                var generator = SystemRandomNumberGenerator()
                let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            } else {
                #expect(
                    try await AggExecutable.run(["rates", "--offline", "-f", "json"], environment: env).status == 0)
                #expect(truncate(path, 4096) == 0)
            }
            for arguments in [
                ["rates", "--offline", "-f", "json"], ["favorites", "list"], ["favorites", "add", "KRW"],
            ] {
                let run = try await AggExecutable.run(arguments, environment: env)
                #expect(!run.signaled)
                #expect(run.status == 70, "\(arguments)")
                #expect(run.errorLines.count == 1)
                #expect(run.error.hasPrefix("agg: database: cannot open \(path): "))
                #expect(run.output.isEmpty)
            }
            let quote = try await AggExecutable.run(
                ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json"],
                environment: env.merging(["AGG_FIXTURES": Fixtures.directory.path]) { $1 })
            #expect(quote.status == 0)
        }
    }

    @Test("an AGG_HOME that cannot be made: exit 70 and one line naming the path")
    func unusableHome() async throws {
        try await withTemporaryHome { folder async throws in
            let fixtures = try FixtureCopy(in: folder)
            try fixtures.serve(usdDay: "2024-08-19")
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
                let run = try await AggExecutable.run(
                    ["rates", "--offline", "-f", "json"], environment: environment(home: home, fixtures: fixtures))
                #expect(!run.signaled)
                #expect(run.status == 70, "\(home)")
                #expect(run.errorLines.count == 1)
                #expect(run.error.contains(home))
                #expect(run.error.contains(line), "\(run.error)")
            }
        }
    }
}
