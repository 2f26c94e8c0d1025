import AggCore
import Synchronization

/// agg's local database: FX rate snapshots, favorites, and the last quote seen from each venue.
///
/// One `Store` holds one SQLite connection behind a mutex, so it can be shared between tasks and
/// threads; calls run one at a time. Several `Store`s — in one process or in several — may use the
/// same file: the database runs in WAL mode, every write is a `BEGIN IMMEDIATE` transaction, and a
/// writer waits up to five seconds for another's lock instead of failing (the quote cache waits
/// 100 ms and then skips its write). Opening an up-to-date database and reading take no write
/// lock.
///
/// Every failure is an `AggError.store` whose message names the file and the problem.
public final class Store: Sendable {
    /// The database file.
    public let path: String

    private let connection: Mutex<SQLiteConnection>

    private init(path: String, connection: sending SQLiteConnection) {
        self.path = path
        self.connection = Mutex(connection)
    }

    /// Opens the database at `path`, creating the file (not its folder) when missing, and brings
    /// its schema up to date.
    ///
    /// - Throws: `AggError.store`, such as "cannot open /x/agg.sqlite: file is not a database
    ///   (SQLite code 26)" for a file that is not SQLite.
    public static func open(path: String) throws(AggError) -> Store {
        do throws(SQLiteError) {
            let connection = try SQLiteConnection.open(path: path)
            try Schema.migrate(connection)
            return Store(path: path, connection: connection)
        } catch {
            throw .store("cannot open \(path): \(error)")
        }
    }

    /// Opens the database at `location`, creating its folder first when needed.
    public static func open(location: StoreLocation) throws(AggError) -> Store {
        try location.createDirectory()
        return try open(path: location.path)
    }

    /// Opens the database the environment selects (see `StoreLocation.resolve(environment:)`).
    public static func open(environment: [String: String]) throws(AggError) -> Store {
        try open(location: StoreLocation.resolve(environment: environment))
    }

    /// The schema version this build of agg writes (`PRAGMA user_version` once migrated).
    public static var schemaVersion: Int { Schema.migrations.count }

    /// Runs SQLite's full consistency check: `"ok"` when healthy, otherwise its findings, one a line.
    public func integrityCheck() throws(AggError) -> String {
        try withConnection("check the integrity of") { connection throws(SQLiteError) in
            try connection.query("PRAGMA integrity_check") { row in row.text(at: 0) ?? "" }
                .joined(separator: "\n")
        }
    }

    /// Moves everything the WAL holds into the database file, so that `agg.sqlite` alone is the
    /// whole database (as before copying it).
    ///
    /// agg never needs this: its connections skip SQLite's checkpoint on close, and recent
    /// writes stay in `agg.sqlite-wal` until a commit leaves `SQLiteConnection.checkpointPages`
    /// pages there, which checkpoints and empties it. Waits up to five seconds for other writers.
    public func checkpoint() throws(AggError) {
        try withConnection("checkpoint") { connection throws(SQLiteError) in try connection.checkpoint() }
    }

    /// Runs `body` with the connection held, turning a failure into an `AggError.store` that
    /// reads "cannot <action> <path>: <SQLite's message>".
    func withConnection<Result: Sendable>(
        _ action: String, _ body: (SQLiteConnection) throws(SQLiteError) -> Result
    ) throws(AggError) -> Result {
        do throws(SQLiteError) {
            return try connection.withLock { (connection) throws(SQLiteError) -> Result in
                try body(connection)
            }
        } catch {
            throw .store("cannot \(action) \(path): \(error)")
        }
    }
}
