import AggCore
import Foundation
import Testing

@testable import AggStore

@Suite("The current rate snapshot")
struct CurrentSnapshotTests {
    /// Stored tables: an older USD one, then the latest (as of 1000 s, next update at 2000 s).
    private func filledStore(_ folder: String) throws -> Store {
        let store = try Store.open(path: folder + "/agg.sqlite")
        try store.saveSnapshot(try rateTable(asOfSeconds: 500, nextUpdateSeconds: 1000))
        try store.saveSnapshot(try rateTable(asOfSeconds: 1000, nextUpdateSeconds: 2000))
        return store
    }

    @Test(
        "the latest snapshot is current until its next update, and only for its own source",
        arguments: [
            (1999, "exchangerate-api", 1000 as Int64?),
            (1000, "exchangerate-api", 1000),
            (100, "exchangerate-api", 1000),
            (2000, "exchangerate-api", nil),
            (2001, "exchangerate-api", nil),
            (1999, "testfx", nil),
        ])
    func current(nowSeconds: Int64, source: String, asOfSeconds: Int64?) async throws {
        try await withTemporaryDirectory { folder in
            let store = try filledStore(folder)
            let table = try store.currentSnapshot(
                base: "USD", source: source, now: Timestamp(secondsSince1970: nowSeconds))
            #expect(table?.asOf == asOfSeconds.map(Timestamp.init(secondsSince1970:)))
            #expect(table?.rates.count == (asOfSeconds == nil ? nil : 1))
        }
    }

    @Test("no snapshot of the base, or one without a next update, is never current")
    func none() async throws {
        try await withTemporaryDirectory { folder in
            let store = try filledStore(folder)
            let now = Timestamp(secondsSince1970: 1500)
            #expect(try store.currentSnapshot(base: "EUR", source: "exchangerate-api", now: now) == nil)
            try store.saveSnapshot(try rateTable(base: "EUR", asOfSeconds: 1000))
            #expect(try store.currentSnapshot(base: "EUR", source: "exchangerate-api", now: now) == nil)
        }
    }
}
