/// The versioned schema of the PostgreSQL history store.
///
/// Each migration runs once per database schema, recorded in `schema_migrations`. All pending
/// migrations run in one transaction that first takes a transaction-level advisory lock, so two
/// recorders starting at once do not both migrate: the second waits, then finds the versions
/// applied. A migration is never edited once released; a change is a new migration.
enum PostgresSchema {
    /// The advisory lock key of migrations (any 64-bit constant agg alone uses).
    static let migrationLock: Int64 = 6_778_727_109_105_103
    /// The advisory lock key of partition creation and dropping.
    static let partitionLock: Int64 = 6_778_727_112_097_114
    /// The seed of the per-source advisory lock of event observation
    /// (`hashtextextended(venue || '|' || source, seed)`).
    static let eventLockSeed: Int64 = 6_778_727_101_118_101

    /// The migrations, in order; the version of each is its position plus one.
    static let migrations: [String] = [
        // 1: prices, FX rates and premiums, each partitioned by UTC day on its time (the
        // partitions are made at record time: see PostgresPartitions); the alert states; the
        // venue leases. Primary keys make one row per instant and series, so a tick sent twice
        // is written once. Codes are checked here too: a point the recorder should never have
        // produced fails its whole tick.
        """
        CREATE TABLE price (
            time timestamptz NOT NULL,
            exchange text NOT NULL CHECK (exchange ~ '^[a-z0-9_-]{1,64}$'),
            base text NOT NULL CHECK (base ~ '^[A-Z0-9]{1,15}$'),
            quote text NOT NULL CHECK (quote ~ '^[A-Z0-9]{1,15}$'),
            last numeric NOT NULL,
            base_volume numeric,
            PRIMARY KEY (base, time, exchange, quote)
        ) PARTITION BY RANGE (time);
        CREATE TABLE rate (
            time timestamptz NOT NULL,
            source text NOT NULL CHECK (source ~ '^[a-z0-9_-]{1,64}$'),
            base text NOT NULL CHECK (base ~ '^[A-Z0-9]{1,15}$'),
            quote text NOT NULL CHECK (quote ~ '^[A-Z0-9]{1,15}$'),
            rate numeric NOT NULL,
            PRIMARY KEY (base, quote, time, source)
        ) PARTITION BY RANGE (time);
        CREATE TABLE premium (
            time timestamptz NOT NULL,
            exchange text NOT NULL CHECK (exchange ~ '^[a-z0-9_-]{1,64}$'),
            symbol text NOT NULL CHECK (symbol ~ '^[A-Z0-9]{1,15}$'),
            basis text NOT NULL CHECK (basis ~ '^[a-z0-9_-]{1,16}$'),
            fx_source text NOT NULL CHECK (fx_source ~ '^[a-z0-9_-]{1,64}$'),
            percent numeric NOT NULL,
            PRIMARY KEY (symbol, time, exchange, basis)
        ) PARTITION BY RANGE (time);
        CREATE TABLE alert_state (
            rule text PRIMARY KEY,
            active boolean NOT NULL,
            last_fired timestamptz
        );
        CREATE TABLE venue_lease (
            venue text PRIMARY KEY,
            holder text NOT NULL,
            expiry timestamptz NOT NULL
        );
        """,
        // 2: market events (EventStore) and each event source's observed state. `event_source`
        // marks a source as observed (its state may be empty); `observe` locks the source with an
        // advisory lock per (venue, source) while it diffs, so two recorders record a change once.
        """
        CREATE TABLE market_event (
            id bigserial PRIMARY KEY,
            venue text NOT NULL,
            source text NOT NULL,
            kind text NOT NULL,
            symbol text,
            network text,
            subject text NOT NULL,
            detail text NOT NULL,
            first_observed timestamptz NOT NULL,
            venue_time timestamptz
        );
        CREATE INDEX market_event_time ON market_event (first_observed);
        CREATE TABLE event_source (
            venue text NOT NULL,
            source text NOT NULL,
            observed_at timestamptz NOT NULL,
            PRIMARY KEY (venue, source)
        );
        CREATE TABLE event_state (
            venue text NOT NULL,
            source text NOT NULL,
            fact_key text NOT NULL,
            condition text NOT NULL,
            symbol text,
            network text,
            subject text NOT NULL,
            detail text NOT NULL,
            venue_time timestamptz,
            PRIMARY KEY (venue, source, fact_key)
        );
        """,
        // 3: ages in history: each recorded price keeps the venue's time of its
        // quote and agg's receive time. Nullable, so rows recorded before read back without an
        // age; a column added to the partitioned table reaches every partition, made or to come.
        """
        ALTER TABLE price ADD COLUMN venue_time timestamptz, ADD COLUMN received_at timestamptz;
        """,
    ]

    /// Checks, reading only, that the database holds agg's schema at this build's version: what
    /// `agg history` needs, which must work for a role that may only `SELECT`.
    static func requireCurrent(_ connection: PostgresConnection) throws(PostgresError) {
        let exists = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL")
        guard exists.values.first?.first == "t" else {
            throw PostgresError(.data, "the database holds no agg history (agg record creates its tables)")
        }
        let rows = try connection.query("SELECT coalesce(max(version), 0) FROM schema_migrations")
        guard let text = rows.values.first?.first ?? nil, let current = Int(text) else {
            throw PostgresError(.data, "schema_migrations holds no readable version")
        }
        if current > migrations.count {
            throw PostgresError(
                .data,
                "the database schema is at version \(current), newer than this agg knows (\(migrations.count)); upgrade agg"
            )
        }
        if current < migrations.count {
            throw PostgresError(
                .data,
                "the database schema is at version \(current), older than this agg's (\(migrations.count)); "
                    + "run agg record against it once to upgrade it")
        }
    }

    /// Applies the migrations this database lacks and answers how many it applied.
    static func migrate(_ connection: PostgresConnection) throws(PostgresError) -> Int {
        try connection.transaction { () throws(PostgresError) -> Int in
            try connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let rows = try connection.query("SELECT coalesce(max(version), 0) FROM schema_migrations")
            guard let text = rows.values.first?.first ?? nil, let current = Int(text) else {
                throw PostgresError(.data, "schema_migrations holds no readable version")
            }
            guard current <= migrations.count else {
                throw PostgresError(
                    .data,
                    "the database schema is at version \(current), newer than this agg knows (\(migrations.count)); upgrade agg"
                )
            }
            for index in current..<migrations.count {
                try connection.executeScript(migrations[index])
                try connection.query("INSERT INTO schema_migrations (version) VALUES ($1)", [String(index + 1)])
            }
            return migrations.count - current
        }
    }
}
