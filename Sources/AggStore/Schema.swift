/// The database schema as an ordered list of migrations; the position of the last one applied
/// is kept in `PRAGMA user_version`.
///
/// Migrations are only ever appended: a released one never changes, because databases out
/// there already ran it. Every table is `STRICT`, so a value of the wrong type is an error
/// instead of being stored silently.
enum Schema {
    /// One step from version `n - 1` to version `n`.
    struct Migration: Sendable {
        /// What the step does, for error messages.
        var summary: String
        /// The statements, run in the migration's transaction.
        var sql: String
    }

    /// The migrations in order; migration `i` brings the database to version `i + 1`.
    static let migrations: [Migration] = [
        Migration(
            summary: "create rate snapshots, favorites and the quote cache",
            sql: """
                CREATE TABLE rate_snapshot (
                    id INTEGER PRIMARY KEY,
                    source TEXT NOT NULL,
                    base TEXT NOT NULL,
                    as_of INTEGER NOT NULL,
                    next_update INTEGER,
                    UNIQUE (base, as_of)
                ) STRICT;
                CREATE TABLE rate (
                    snapshot_id INTEGER NOT NULL REFERENCES rate_snapshot (id) ON DELETE CASCADE,
                    currency TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (snapshot_id, currency)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE favorite (
                    kind TEXT NOT NULL CHECK (kind IN ('currency', 'symbol')),
                    code TEXT NOT NULL,
                    PRIMARY KEY (kind, code)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE quote_cache (
                    exchange TEXT NOT NULL,
                    base TEXT NOT NULL,
                    quote TEXT NOT NULL,
                    last TEXT NOT NULL,
                    open TEXT,
                    high TEXT,
                    low TEXT,
                    previous_close TEXT,
                    change TEXT,
                    change_percent TEXT,
                    base_volume TEXT,
                    quote_volume TEXT,
                    timestamp INTEGER,
                    fetched_at INTEGER NOT NULL,
                    PRIMARY KEY (exchange, base, quote)
                ) STRICT, WITHOUT ROWID;
                """
        ),
        // Several FX sources now store snapshots of the same base: each source keeps its own
        // (a snapshot is compared only with an earlier one from the same source). SQLite cannot
        // drop a UNIQUE constraint, so both tables are rebuilt: the child first, so that dropping
        // the old parent cascades into nothing; the renames rewrite the child's reference.
        Migration(
            summary: "key rate snapshots by source as well as base and time",
            sql: """
                CREATE TABLE rate_snapshot_new (
                    id INTEGER PRIMARY KEY,
                    source TEXT NOT NULL,
                    base TEXT NOT NULL,
                    as_of INTEGER NOT NULL,
                    next_update INTEGER,
                    UNIQUE (source, base, as_of)
                ) STRICT;
                INSERT INTO rate_snapshot_new (id, source, base, as_of, next_update)
                    SELECT id, source, base, as_of, next_update FROM rate_snapshot;
                CREATE TABLE rate_new (
                    snapshot_id INTEGER NOT NULL REFERENCES rate_snapshot_new (id) ON DELETE CASCADE,
                    currency TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (snapshot_id, currency)
                ) STRICT, WITHOUT ROWID;
                INSERT INTO rate_new (snapshot_id, currency, value) SELECT snapshot_id, currency, value FROM rate;
                DROP TABLE rate;
                DROP TABLE rate_snapshot;
                ALTER TABLE rate_snapshot_new RENAME TO rate_snapshot;
                ALTER TABLE rate_new RENAME TO rate;
                """
        ),
        // agg record's history (HistoryStore): rows appended once a tick, read by symbol and
        // time, pruned oldest first by time. Decimals are exact text, times integer ms.
        Migration(
            summary: "create the recorded history (prices, rates, premiums), alert states and venue leases",
            sql: """
                CREATE TABLE price_point (
                    time INTEGER NOT NULL,
                    exchange TEXT NOT NULL,
                    base TEXT NOT NULL,
                    quote TEXT NOT NULL,
                    last TEXT NOT NULL,
                    base_volume TEXT
                ) STRICT;
                CREATE INDEX price_point_symbol_time ON price_point (base, time);
                CREATE INDEX price_point_time ON price_point (time);
                CREATE TABLE rate_point (
                    time INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    base TEXT NOT NULL,
                    quote TEXT NOT NULL,
                    rate TEXT NOT NULL
                ) STRICT;
                CREATE INDEX rate_point_time ON rate_point (time);
                CREATE TABLE premium_point (
                    time INTEGER NOT NULL,
                    exchange TEXT NOT NULL,
                    symbol TEXT NOT NULL,
                    basis TEXT NOT NULL,
                    fx_source TEXT NOT NULL,
                    percent TEXT NOT NULL
                ) STRICT;
                CREATE INDEX premium_point_symbol_time ON premium_point (symbol, time);
                CREATE INDEX premium_point_time ON premium_point (time);
                CREATE TABLE alert_state (
                    rule TEXT PRIMARY KEY,
                    active INTEGER NOT NULL CHECK (active IN (0, 1)),
                    last_fired INTEGER
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE venue_lease (
                    venue TEXT PRIMARY KEY,
                    holder TEXT NOT NULL,
                    expiry INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                """
        ),
        // A cached quote keeps what its change is measured against: the venue's descriptor does
        // not say it for every quote (Bithumb's v1 quotes have no basis where its classic ones
        // are rolling 24 h). Rows cached before this answer NULL: an unknown basis, not a guess.
        Migration(
            summary: "keep each cached quote's change basis",
            sql: "ALTER TABLE quote_cache ADD COLUMN change_basis TEXT;"
        ),
        // Market events (EventStore): the events, and each source's last observed facts that the
        // next observation is diffed against. `event_source` marks a source as observed, so that
        // a source whose state is empty (no caution anywhere) is not taken for a new one and
        // baselined again. Times are integer ms; a fact's key is EventFact.Identity.key.
        Migration(
            summary: "create the market events and each event source's observed state",
            sql: """
                CREATE TABLE market_event (
                    id INTEGER PRIMARY KEY,
                    venue TEXT NOT NULL,
                    source TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    symbol TEXT,
                    network TEXT,
                    subject TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    first_observed INTEGER NOT NULL,
                    venue_time INTEGER
                ) STRICT;
                CREATE INDEX market_event_time ON market_event (first_observed);
                CREATE TABLE event_source (
                    venue TEXT NOT NULL,
                    source TEXT NOT NULL,
                    observed_at INTEGER NOT NULL,
                    PRIMARY KEY (venue, source)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE event_state (
                    venue TEXT NOT NULL,
                    source TEXT NOT NULL,
                    fact_key TEXT NOT NULL,
                    condition TEXT NOT NULL,
                    symbol TEXT,
                    network TEXT,
                    subject TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    venue_time INTEGER,
                    PRIMARY KEY (venue, source, fact_key)
                ) STRICT, WITHOUT ROWID;
                """
        ),
        // Issue 22 (h34), ages in history: a recorded price keeps the venue's time of its quote
        // and agg's receive time (integer ms), so that `agg history` tells how old each price was
        // when it was recorded. Nullable: rows recorded before answer NULL, shown without an age.
        Migration(
            summary: "keep each recorded price's venue time and receive time",
            sql: """
                ALTER TABLE price_point ADD COLUMN venue_time INTEGER;
                ALTER TABLE price_point ADD COLUMN received_at INTEGER;
                """
        ),
    ]

    /// The version a database has once every migration ran.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Brings the database up to `currentVersion`.
    ///
    /// A database already up to date is only read: opening it takes no write lock, so that a
    /// command that only reads (`favorites list`, `quote` reading its cache) never waits for
    /// another process that is writing. Otherwise reading the version again and applying the
    /// missing steps happen in one `BEGIN IMMEDIATE` transaction, so when two processes open a
    /// fresh file together the second waits for the first and then finds nothing left to do.
    static func migrate(_ connection: SQLiteConnection) throws(SQLiteError) {
        guard try version(connection) != currentVersion else { return }
        try connection.transaction { () throws(SQLiteError) in
            let current = try version(connection)
            guard current <= currentVersion else {
                throw SQLiteError(
                    invalidData:
                        "the database has schema version \(current), newer than version \(currentVersion) "
                        + "that this agg knows; use a newer agg"
                )
            }
            guard current < currentVersion else { return }
            for index in Int(current)..<migrations.count {
                let migration = migrations[index]
                do throws(SQLiteError) {
                    try connection.execute(migration.sql)
                } catch {
                    var failure = error
                    failure.message = "migration \(index + 1) (\(migration.summary)) failed: \(error.message)"
                    throw failure
                }
            }
            // PRAGMA takes no parameters; the value is our own integer.
            try connection.execute("PRAGMA user_version = \(currentVersion)")
        }
    }

    /// The schema version the database records (0 for a new file).
    private static func version(_ connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        (try connection.query("PRAGMA user_version") { row in row.int64(at: 0) }.first ?? nil) ?? 0
    }
}
