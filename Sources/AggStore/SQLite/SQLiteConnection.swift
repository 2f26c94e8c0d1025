import CSQLite

/// Owns one `sqlite3*` handle: the only place the database pointer lives.
///
/// The handle is closed in `deinit`, including when opening or configuring failed, because
/// `sqlite3_open_v2` hands back a handle that must be closed even on failure. The class is not
/// `Sendable` and does no locking of its own (the handle is opened with `SQLITE_OPEN_NOMUTEX`):
/// `Store` keeps it inside a `Mutex`, so one thread at a time uses it.
final class SQLiteConnection {
    /// How long a connection waits for another process's lock before giving up with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    private let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        // close_v2 never fails on a valid handle; it defers the close while statements remain.
        sqlite3_close_v2(handle)
    }

    /// Opens (creating if needed) the database at `path` and configures it: extended result
    /// codes, a busy timeout, WAL journaling, `synchronous=NORMAL` and foreign keys.
    static func open(path: String) throws(SQLiteError) -> SQLiteConnection {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &pointer, flags, nil)
        guard let pointer else {
            throw SQLiteError(code: status, message: errorString(status))
        }
        let connection = SQLiteConnection(handle: pointer)
        guard status == SQLITE_OK else { throw connection.lastError(status) }
        try connection.configure(path: path)
        return connection
    }

    private func configure(path: String) throws(SQLiteError) {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        let mode = try switchToWAL()
        let expected = path == ":memory:" ? "memory" : "wal"
        guard mode?.lowercased() == expected else {
            throw SQLiteError(
                invalidData: "cannot switch to WAL journaling (the journal mode is \(mode ?? "unknown"))"
            )
        }
        // Durability: with WAL and synchronous=NORMAL a commit costs no fsync; a power loss can
        // lose the last commits, never corrupt the file. What agg stores is a cache of venue
        // answers and settings a user can type again, so that is the right trade. The fsyncs
        // that remain belong to checkpoints (copying the WAL into the database), which SQLite
        // would otherwise run every time the last connection closes, that is at the end of every
        // agg process: three or four fsyncs plus creating and deleting the WAL file, tens of
        // milliseconds on a busy disk. Instead the WAL stays between runs, and once a commit
        // leaves `checkpointPages` pages in it (about every fifteen `quote --all` runs) it is
        // checkpointed and emptied, when no other connection is using it (see
        // `agg_sqlite_checkpoint_at`); the next process to open the file re-reads what the WAL
        // holds, at most about 1 MB.
        try execute("PRAGMA synchronous=NORMAL")
        agg_sqlite_checkpoint_at(handle, Int32(Self.checkpointPages), Self.busyTimeoutMilliseconds)
        guard agg_sqlite_no_checkpoint_on_close(handle) == SQLITE_OK else { throw lastError() }
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Switches the database to WAL journaling and returns the mode actually in force: a file
    /// system without shared memory, or an in-memory database, silently keeps another one.
    ///
    /// On a new file, several processes opening it at once all ask for the switch, which needs
    /// the file to themselves. SQLite then refuses all but one with `SQLITE_BUSY` at once,
    /// without waiting on the busy timeout (each holds a shared lock the other would wait for),
    /// so the switch is asked again after a pause of a few milliseconds until the busy timeout
    /// has passed: a few milliseconds later the winner has switched, and the pragma only reads.
    private func switchToWAL() throws(SQLiteError) -> String? {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Self.busyTimeoutMilliseconds))
        var pause: Int32 = 1
        while true {
            do throws(SQLiteError) {
                return try query("PRAGMA journal_mode=WAL") { row in row.text(at: 0) }.first ?? nil
            } catch {
                guard error.isBusy, ContinuousClock.now < deadline else { throw error }
                sqlite3_sleep(pause)
                pause = min(pause * 2, 20)
            }
        }
    }

    /// The WAL size, in pages of 4 KiB, at which a commit checkpoints it into the database.
    static let checkpointPages = 256

    /// Copies every page in the WAL into the database file and empties the WAL.
    func checkpoint() throws(SQLiteError) {
        var logFrames: Int32 = 0
        var copiedFrames: Int32 = 0
        let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copiedFrames)
        guard status == SQLITE_OK else { throw lastError(status) }
    }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw lastError(status) }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var pointer: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &pointer, nil)
        guard status == SQLITE_OK, let pointer else {
            sqlite3_finalize(pointer)
            throw lastError(status)
        }
        return SQLiteStatement(handle: pointer, connection: self)
    }

    /// Runs a statement that returns no rows and answers how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.run()
    }

    /// Runs a query and maps every row.
    func query<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(SQLiteError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(try row(statement))
        }
        return rows
    }

    /// The kind of lock a transaction takes when it begins.
    enum TransactionKind: String {
        /// Takes the write lock at once, so that two writers queue on the busy timeout instead
        /// of one failing with `SQLITE_BUSY_SNAPSHOT` when it upgrades a read lock.
        case immediate = "BEGIN IMMEDIATE"
        /// Reads a consistent snapshot without blocking writers.
        case deferred = "BEGIN DEFERRED"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it or the commit throws.
    ///
    /// With `waitingAtMost`, the transaction waits that many milliseconds, instead of the usual
    /// five seconds, for another connection's lock, and then fails with `SQLITE_BUSY`
    /// (`SQLiteError.isBusy`).
    func transaction<Result>(
        _ kind: TransactionKind = .immediate, waitingAtMost milliseconds: Int32? = nil,
        _ body: () throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        if let milliseconds {
            sqlite3_busy_timeout(handle, milliseconds)
        }
        defer {
            if milliseconds != nil { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
        }
        try execute(kind.rawValue)
        do throws(SQLiteError) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT can leave the transaction open; some errors already rolled it back.
            if sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            }
            throw error
        }
    }

    /// The rows changed by the most recent INSERT, UPDATE or DELETE.
    var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// The error SQLite recorded for the last failed call on this connection.
    func lastError(_ status: Int32? = nil) -> SQLiteError {
        let code = sqlite3_extended_errcode(handle)
        let message = sqlite3_errmsg(handle).map { String(cString: $0) } ?? errorString(status ?? code)
        return SQLiteError(code: code != SQLITE_OK ? code : (status ?? code), message: message)
    }
}

/// SQLite's English text for a result code.
private func errorString(_ code: Int32) -> String {
    sqlite3_errstr(code).map { String(cString: $0) } ?? "SQLite error \(code)"
}
