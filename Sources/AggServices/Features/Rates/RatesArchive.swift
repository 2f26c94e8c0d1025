import AggCore
import AggStore

/// Where `agg rates` finds the tables it compares with and keeps the ones it fetches: the local
/// database for the command line, the previous poll's tables for `agg serve`.
package protocol RatesArchive: Sendable {
    /// The kept table of `source` from `base` whose next update is still to come, if any: it
    /// answers without a request.
    func current(base: String, source: String, now: Timestamp) throws(AggError) -> RateTable?
    /// The latest kept table of `source` from `base` older than `asOf`, to compare with.
    func previous(base: String, source: String, olderThan asOf: Timestamp) throws(AggError) -> RateTable?
    /// Keeps `table` (and `keep` tables per source and base); answers an `AGG_DEBUG` note when
    /// it could not be kept this time.
    func keep(_ table: RateTable, keep: Int) throws(AggError) -> String?
    /// The favorite currencies, listed first.
    func favorites() throws(AggError) -> Set<String>
}

/// The local database as `agg rates`' archive.
package struct StoredRates: RatesArchive {
    var store: Store

    package func current(base: String, source: String, now: Timestamp) throws(AggError) -> RateTable? {
        try store.currentSnapshot(base: base, source: source, now: now)
    }

    package func previous(base: String, source: String, olderThan asOf: Timestamp) throws(AggError) -> RateTable? {
        try store.snapshot(base: base, source: source, olderThan: asOf)
    }

    /// Another process holding the database must not hold up the answer: the table is then not
    /// kept, and only `AGG_DEBUG` says so.
    package func keep(_ table: RateTable, keep: Int) throws(AggError) -> String? {
        try store.saveSnapshotUnlessBusy(table, keep: keep) == .skippedBusy
            ? SnapshotStoreNote.skipped(table, in: store) : nil
    }

    package func favorites() throws(AggError) -> Set<String> { Set(try store.favorites(kind: .currency)) }

    package init(store: Store) {
        self.store = store
    }
}

/// Tables held in memory (`agg serve`'s previous poll): nothing is current, nothing is kept,
/// no favorites.
package struct KeptRates: RatesArchive {
    /// By source id.
    var tables: [String: RateTable]

    package func current(base: String, source: String, now: Timestamp) -> RateTable? { nil }

    package func previous(base: String, source: String, olderThan asOf: Timestamp) -> RateTable? {
        guard let table = tables[source], table.base == base, table.asOf < asOf else { return nil }
        return table
    }

    package func keep(_ table: RateTable, keep: Int) -> String? { nil }

    package func favorites() -> Set<String> { [] }

    package init(tables: [String: RateTable]) {
        self.tables = tables
    }
}
