import AggCore
import Foundation
import Testing

@testable import AggStore

/// Another process writing the database (a second connection holding `BEGIN IMMEDIATE`) must not
/// hold up anything that only reads, nor a quote cache write for more than about 100 ms.
@Suite("Another writer holding the lock")
struct WriteLockTests {
    /// A second connection to `path` holding the write lock until `release()`.
    final class Writer {
        let connection: SQLiteConnection

        init(path: String) throws {
            connection = try SQLiteConnection.open(path: path)
            try connection.execute("BEGIN IMMEDIATE")
        }

        func release() throws {
            try connection.execute("ROLLBACK")
        }
    }

    /// Five seconds is the busy timeout of ordinary writes: anything that waited for the lock
    /// would take at least that long; 4 s leaves room for a loaded machine.
    static let bound: Duration = .seconds(4)

    static func elapsed(_ body: () throws -> Void) rethrows -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return clock.now - start
    }

    @Test("a cache write gives up after about 100 ms and says so; once the lock is gone it writes")
    func cacheWriteSkips() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let store = try Store.open(path: path)
            let quote = try QuoteCacheTests.fullQuote()
            let writer = try Writer(path: path)
            var outcome: Store.CacheWrite?
            let waited = try Self.elapsed {
                outcome = try store.cacheQuotes([quote], fetchedAt: Timestamp(secondsSince1970: 1))
            }
            #expect(outcome == .skippedBusy)
            #expect(waited >= .milliseconds(Int(Store.cacheWriteWaitMilliseconds) - 10))
            #expect(waited < Self.bound)
            #expect(try store.cachedQuote(exchange: "bithumb", market: QuoteCacheTests.btc) == nil)

            try writer.release()
            #expect(try store.cacheQuotes([quote], fetchedAt: Timestamp(secondsSince1970: 2)) == .written)
            #expect(try store.cachedQuote(exchange: "bithumb", market: QuoteCacheTests.btc)?.quote == quote)
        }
    }

    @Test("opening an up-to-date database and every read take no write lock")
    func readsDoNotWait() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let setUp = try Store.open(path: path)
            try setUp.addFavorites(["KRW"], kind: .currency)
            try setUp.saveSnapshot(try rateTable(asOfSeconds: 50))
            try setUp.saveSnapshot(try rateTable(asOfSeconds: 100, nextUpdateSeconds: 200))
            try setUp.cacheQuotes([try QuoteCacheTests.fullQuote()], fetchedAt: Timestamp(secondsSince1970: 1))
            let writer = try Writer(path: path)
            defer { try? writer.release() }
            let waited = try Self.elapsed {
                let store = try Store.open(path: path)
                #expect(try store.favorites(kind: .currency) == ["KRW"])
                // What `agg rates` reads when the day's rates are stored.
                let current = try store.currentSnapshot(
                    base: "USD", source: "exchangerate-api", now: Timestamp(secondsSince1970: 150))
                #expect(current?.asOf == Timestamp(secondsSince1970: 100))
                #expect(
                    try store.snapshot(base: "USD", olderThan: Timestamp(secondsSince1970: 100))?.asOf
                        == Timestamp(secondsSince1970: 50))
                #expect(try store.cachedQuote(exchange: "bithumb", market: QuoteCacheTests.btc) != nil)
            }
            #expect(waited < Self.bound)
        }
    }

    @Test("closing leaves recent writes in the WAL (no checkpoint, no fsync); checkpoint() moves them into the file")
    func walOutlivesTheConnection() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            do {
                let store = try Store.open(path: path)
                try store.addFavorites(["KRW"], kind: .currency)
            }
            let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
            #expect((wal ?? 0) > 0)
            #expect(try Store.open(path: path).favorites(kind: .currency) == ["KRW"])

            // The database file alone, without its WAL, does not hold the favorite yet.
            let copy = folder + "/copy.sqlite"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            #expect(try Store.open(path: copy).favorites(kind: .currency) == [])

            try Store.open(path: path).checkpoint()
            let checkpointed = folder + "/checkpointed.sqlite"
            try FileManager.default.copyItem(atPath: path, toPath: checkpointed)
            #expect(try Store.open(path: checkpointed).favorites(kind: .currency) == ["KRW"])
        }
    }

    /// One short process after another, as `agg quote` runs: each opens the database, caches a
    /// market and closes it. SQLite's own automatic checkpoint never emptied the WAL in that
    /// pattern (each process rebuilt the WAL's index and forgot it had been copied): after 60
    /// such runs it held 1.5 MB, which every later process read whole.
    @Test("the WAL of one short process after another is emptied once it reaches checkpointPages pages")
    func walStaysBounded() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let quotes = (0..<480).map { index in
                Quote(exchange: "bithumb", market: Market(base: "C\(index)", quote: "KRW"), last: Decimal(index))
            }
            let limit = SQLiteConnection.checkpointPages * 4096
            var largest = 0
            var emptied = 0
            for run in 0..<120 {
                do {
                    let store = try Store.open(path: path)
                    try store.cacheQuotes(quotes, fetchedAt: Timestamp(secondsSince1970: Int64(run)))
                }
                let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
                largest = max(largest, wal)
                if wal == 0 { emptied += 1 }
            }
            // The WAL never outgrows the threshold by more than one run's frames, and it was
            // emptied again and again.
            #expect(largest < limit + 256 * 1024)
            #expect(emptied >= 2)
            let store = try Store.open(path: path)
            #expect(
                try store.cachedQuote(exchange: "bithumb", market: Market(base: "C479", quote: "KRW"))?.quote.last
                    == 479)
        }
    }
}
