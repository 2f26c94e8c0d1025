import AggCore
import AggStore

/// The `AGG_DEBUG` note of a rate snapshot that was not stored because another process held the
/// database's write lock: the answer never waits for the store (issue 20, rule 7).
enum SnapshotStoreNote {
    /// "rate snapshot: PATH is being written by another process; the USD table of exchangerate as
    /// of 2024-08-20T00:02:31Z is not stored this time".
    static func skipped(_ table: RateTable, in store: Store) -> String {
        "rate snapshot: \(store.path) is being written by another process; the \(table.base) table of "
            + "\(table.source) as of \(table.asOf) is not stored this time"
    }
}
