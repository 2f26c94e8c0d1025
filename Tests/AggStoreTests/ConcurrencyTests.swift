import AggCore
import Foundation
import Synchronization
import Testing

@testable import AggStore

/// Runs `work` on `count` threads of its own at once and waits for all of them.
///
/// Real threads, not tasks: SQLite calls block while waiting for a lock, and blocking the
/// cooperative pool (two threads on a two-core machine) would serialize the workers.
private func onThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) async {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            work(index)
            group.leave()
        }
    }
    await withCheckedContinuation { continuation in
        group.notify(queue: .global()) { continuation.resume() }
    }
}

@Suite("Concurrent use")
struct ConcurrencyTests {
    static let threads = 8
    static let perThread = 50

    @Test("separate stores on one fresh file, 8 threads writing at once")
    func separateStores() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let failures = Mutex<[String]>([])
            await onThreads(Self.threads) { thread in
                do {
                    let store = try Store.open(path: path)
                    for index in 0..<Self.perThread {
                        let table = RateTable(
                            source: "test", base: "USD", rates: ["KRW": Decimal(thread * 1000 + index + 1)],
                            asOf: Timestamp(secondsSince1970: Int64(thread * 1000 + index)), nextUpdate: nil
                        )
                        guard try store.saveSnapshot(table, keep: 10_000) else {
                            failures.withLock { $0.append("snapshot \(thread)/\(index) reported as a duplicate") }
                            return
                        }
                        try store.addFavorites(["T\(thread)C\(index)"], kind: .symbol)
                    }
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])

            let store = try Store.open(path: path)
            #expect(try store.snapshotCount(base: "USD") == Self.threads * Self.perThread)
            #expect(try store.favorites(kind: .symbol).count == Self.threads * Self.perThread)
            #expect(try store.integrityCheck() == "ok")
        }
    }

    @Test("8 threads opening one fresh file at once, 40 times: every open succeeds and migrates once")
    func freshFileOpenedAtOnce() async throws {
        try await withTemporaryDirectory { folder in
            let failures = Mutex<[String]>([])
            for round in 0..<40 {
                let path = folder + "/fresh\(round).sqlite"
                await onThreads(Self.threads) { thread in
                    do {
                        try Store.open(path: path).addFavorites(["R\(round)T\(thread)"], kind: .symbol)
                    } catch {
                        failures.withLock { $0.append("round \(round), thread \(thread): \(error)") }
                    }
                }
                let store = try Store.open(path: path)
                #expect(try store.favorites(kind: .symbol).count == Self.threads)
            }
            #expect(failures.withLock { $0 } == [])
        }
    }

    @Test("one store shared by 8 threads")
    func sharedStore() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let failures = Mutex<[String]>([])
            await onThreads(Self.threads) { thread in
                do {
                    for index in 0..<Self.perThread {
                        let market = Market(base: "C\(index)", quote: "KRW")
                        let quote = Quote(exchange: "x\(thread)", market: market, last: Decimal(index))
                        try store.cacheQuotes([quote], fetchedAt: Timestamp(secondsSince1970: Int64(index)))
                        try store.addFavorites(["T\(thread)C\(index)"], kind: .currency)
                        _ = try store.cachedQuote(exchange: "x\(thread)", market: market)
                    }
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(try store.favorites(kind: .currency).count == Self.threads * Self.perThread)
            #expect(try store.integer("SELECT count(*) FROM quote_cache") == Int64(Self.threads * Self.perThread))
            #expect(try store.integrityCheck() == "ok")
        }
    }
}
