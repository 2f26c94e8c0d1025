import AggCore
import Foundation
import Testing

@testable import AggStore

@Suite("Schema and opening")
struct SchemaTests {
    @Test("a fresh file is migrated to the current version with STRICT tables in WAL mode")
    func freshFile() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            #expect(try store.integer("PRAGMA user_version") == Int64(Store.schemaVersion))
            #expect(Store.schemaVersion == Schema.migrations.count)
            #expect(
                try store.integer(
                    "SELECT count(*) FROM pragma_table_list WHERE schema = 'main' AND strict = 0 AND name NOT LIKE 'sqlite_%'"
                ) == 0)
            #expect(
                try store.integer("SELECT count(*) FROM pragma_table_list WHERE schema = 'main' AND strict = 1") == 12)
            let mode = try store.withConnection("inspect") { connection throws(SQLiteError) in
                try connection.query("PRAGMA journal_mode") { row in row.text(at: 0) }.first ?? nil
            }
            #expect(mode == "wal")
            #expect(try store.integrityCheck() == "ok")
        }
    }

    @Test("reopening a current database changes nothing")
    func reopen() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            do {
                let store = try Store.open(path: path)
                try store.addFavorites(["USD"], kind: .currency)
                try store.saveSnapshot(try rateTable(asOfSeconds: 1_000))
            }
            let store = try Store.open(path: path)
            #expect(try store.integer("PRAGMA user_version") == Int64(Store.schemaVersion))
            #expect(try store.favorites(kind: .currency) == ["USD"])
            #expect(try store.snapshotCount(base: "USD") == 1)
        }
    }

    @Test("a database from a newer agg is refused, not damaged")
    func newerVersion() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            do {
                let store = try Store.open(path: path)
                try store.withConnection("prepare") { connection throws(SQLiteError) in
                    try connection.execute("PRAGMA user_version = 99")
                }
            }
            let message = storeErrorMessage { () throws(AggError) in _ = try Store.open(path: path) }
            #expect(message?.contains(path) == true)
            #expect(message?.contains("schema version 99") == true)
        }
    }

    @Test("a file that is not SQLite gives an error naming the path")
    func corruptFile() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let message = storeErrorMessage { () throws(AggError) in _ = try Store.open(path: path) }
            #expect(message?.hasPrefix("cannot open \(path): ") == true)
            #expect(message?.contains("file is not a database") == true)
        }
    }

    @Test("a missing folder is reported with the path")
    func missingFolder() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/absent/agg.sqlite"
            let message = storeErrorMessage { () throws(AggError) in _ = try Store.open(path: path) }
            #expect(message?.contains(path) == true)
            #expect(message?.contains("unable to open database file") == true)
        }
    }

    @Test("store errors read as database errors and are not usage errors")
    func errorShape() async throws {
        try await withTemporaryDirectory { folder in
            do throws(AggError) {
                _ = try Store.open(path: folder + "/absent/agg.sqlite")
                Issue.record("opening under a missing folder succeeded")
            } catch {
                #expect(error.kind == "store")
                #expect(!error.isUsageError)
                #expect(error.description.hasPrefix("database: cannot open \(folder)/absent/agg.sqlite"))
            }
        }
    }
}

@Suite("Schema migration 2")
struct SourceKeyMigrationTests {
    @Test("a version 1 database keeps its snapshots and rates, then takes a second source at the same time")
    func fromVersion1() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            do {
                let connection = try SQLiteConnection.open(path: path)
                try connection.execute(Schema.migrations[0].sql)
                try connection.execute(
                    """
                    INSERT INTO rate_snapshot VALUES (1, 'exchangerate', 'USD', 100000, 200000), (2, 'exchangerate', 'USD', 300000, NULL);
                    INSERT INTO rate VALUES (1, 'KRW', '1335.841127'), (2, 'KRW', '1331.529034'), (2, 'JPY', '146.282514');
                    PRAGMA user_version = 1;
                    """)
            }
            let store = try Store.open(path: path)
            #expect(try store.integer("PRAGMA user_version") == Int64(Store.schemaVersion))
            #expect(try store.integrityCheck() == "ok")
            #expect(try store.integer("SELECT count(*) FROM pragma_foreign_key_check") == 0)
            let latest = try #require(try store.latestSnapshot(base: "USD", source: "exchangerate"))
            #expect(latest.rates == ["KRW": try decimal("1331.529034"), "JPY": try decimal("146.282514")])
            #expect(
                try store.snapshot(base: "USD", olderThan: latest.asOf)?.nextUpdate == Timestamp(secondsSince1970: 200))
            var other = latest
            other.source = "frankfurter"
            #expect(try store.saveSnapshot(other, keep: 1))
            #expect(try store.snapshotCount(base: "USD", source: "exchangerate") == 2)
            // Deleting a snapshot still takes its rates with it: the rebuilt reference cascades.
            try store.withConnection("prune") { connection throws(SQLiteError) in
                _ = try connection.run("DELETE FROM rate_snapshot WHERE source = 'exchangerate'")
            }
            #expect(try store.integer("SELECT count(*) FROM rate") == 2)
        }
    }
}
