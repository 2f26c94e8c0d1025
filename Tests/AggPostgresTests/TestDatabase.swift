import AggCore
import FoundationEssentials
import Glibc
import Testing

@testable import AggPostgres

/// The PostgreSQL server the tests use: `AGG_TEST_POSTGRES_URL`, which Tools/test sets to the
/// throwaway server Tools/postgres.sh starts. Without it, every test that needs PostgreSQL is
/// skipped (Swift Testing lists them as skipped, with the reason below).
enum TestDatabase {
    static let url: String? = getenv("AGG_TEST_POSTGRES_URL").map { String(cString: $0) }.flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Whether a server is there.
    static var available: Bool { url != nil }

    /// The skip notice.
    static let skipNotice: Comment =
        "AGG_TEST_POSTGRES_URL is not set: no PostgreSQL to test against (Tools/test starts one)"

    /// The URL of a new, empty schema of the test database, so that tests running in parallel
    /// never see each other's tables (libpq's `options=-c search_path=...`).
    static func freshSchema() async throws -> PostgresURL {
        let base = try PostgresURL(url ?? "")
        let name = "t_" + UUID().uuidString.lowercased().filter { $0 != "-" }
        let session = try await PostgresSession.connect(base)
        try await session.run { connection throws(PostgresError) in
            try connection.executeScript("CREATE SCHEMA \(name)")
        }
        let separator = base.text.contains("?") ? "&" : "?"
        return try PostgresURL(base.text + separator + "options=-csearch_path%3D\(name)")
    }

    /// A store on a fresh schema.
    static func freshStore() async throws -> PostgresHistoryStore {
        try await PostgresHistoryStore.open(try await freshSchema(), clock: .caller)
    }

    /// The single text column of every row `sql` answers, on `store`'s connection.
    static func column(_ store: PostgresHistoryStore, _ sql: String, _ parameters: [String?] = []) async throws
        -> [String?]
    {
        try await store.perform { connection throws(PostgresError) in
            try connection.query(sql, parameters).values.map { $0.first ?? nil }
        }
    }
}
