import AggCore
import AggOptions
import AggPostgres

extension HistoryStoreLocation {
    /// Opens the store: PostgreSQL here (connecting and migrating, or `forReading` only
    /// checking the schema, so that a read-only role can read), SQLite through `sqlite`, which is
    /// given the path (`nil` for the default) and opens the embedded store.
    func open(
        forReading: Bool = false, sqlite: (String?) async throws(AggError) -> any HistoryStores.RecordingStore
    ) async throws(AggError) -> any HistoryStores.RecordingStore {
        switch self {
        case .sqlite(let path): try await sqlite(path)
        case .postgres(let url): try await PostgresHistoryStore.open(url, forReading: forReading)
        }
    }
}
