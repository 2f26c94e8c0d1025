import AggCore
import AggJSON
import FoundationEssentials
import Synchronization

/// The history store in a PostgreSQL database, shared by recorders on several machines and read
/// by `agg history` and `agg serve`.
///
/// - Prices, rates and premiums are `NUMERIC`, sent and read back as decimal text, so a value
///   comes back exactly as recorded; times are `timestamptz`, written as ISO-8601 text with
///   milliseconds and read back as whole milliseconds since 1970, so they round-trip exactly.
/// - The three point tables are partitioned by UTC day (`PostgresPartitions`); `prune` drops
///   whole days.
/// - Venues are leased (`claimVenues`), so several recorders share them, and `record` writes only
///   what the recording holder's leases cover: see `record(_:)`.
///
/// Every call runs on the store's one connection, off the cooperative pool (`PostgresSession`);
/// calls queue behind each other. A connection that broke is re-opened on the next call.
public final class PostgresHistoryStore: HistoryStore {
    let session: PostgresSession
    /// Whose clock judges leases and retention.
    let clock: StoreClock
    private let state = Mutex(State())

    /// Whose clock judges lease expiry and retention.
    enum StoreClock: Sendable, Equatable {
        /// The database server's `now()`: recorders on several machines, whatever their clocks,
        /// agree on when a lease expires and on what is older than the retention. agg uses it.
        case database
        /// The times the caller passes (`now` of `claimVenues`, a point's time, the `now` of
        /// `prune(retainingSeconds:now:limit:)`), for tests that play out minutes in
        /// milliseconds.
        case caller
    }

    private struct State {
        /// The days whose partitions this store made or saw, so that most ticks skip that step.
        var days: Set<Int64> = []
        /// The holder this store last claimed venues for: `record` writes as that holder.
        var holder: String?
    }

    private init(session: PostgresSession, clock: StoreClock) {
        self.session = session
        self.clock = clock
    }

    /// Connects to `url` and brings the schema up to date, or, `forReading`, checks that it is
    /// up to date without changing anything: `agg history` runs with a role that may only
    /// `SELECT` (no `CREATE TABLE IF NOT EXISTS`, no lock, no write).
    ///
    /// - Throws: `AggError.store` naming the server (never the password) when the connection or
    ///   a migration fails, or, for reading, when the database holds no agg history or one of
    ///   another schema version.
    public static func open(_ url: PostgresURL, forReading: Bool = false) async throws(AggError)
        -> PostgresHistoryStore
    {
        try await open(url, forReading: forReading, clock: .database)
    }

    /// `open(_:forReading:)` with the clock that judges leases and retention.
    static func open(_ url: PostgresURL, forReading: Bool = false, clock: StoreClock) async throws(AggError)
        -> PostgresHistoryStore
    {
        let session: PostgresSession
        do throws(PostgresError) {
            session = try await PostgresSession.connect(url)
        } catch {
            throw error.storeError(url.description)
        }
        let store = PostgresHistoryStore(session: session, clock: clock)
        if forReading {
            try await store.perform { connection throws(PostgresError) in
                try PostgresSchema.requireCurrent(connection)
            }
        } else {
            _ = try await store.perform { connection throws(PostgresError) in try PostgresSchema.migrate(connection) }
        }
        return store
    }

    /// The server, as agg names it in messages: the URL without its password.
    public var location: String { session.url.description }

    /// Runs `body` on the connection and turns its failure into an `AggError.store`.
    @discardableResult
    func perform<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> Value
    ) async throws(AggError) -> Value {
        do throws(PostgresError) {
            return try await session.run(body)
        } catch {
            throw error.storeError(location)
        }
    }

    // MARK: - Recording

    /// Writes every point of `tick` in one transaction: all of them or none.
    ///
    /// Nothing is recorded twice, in two ways:
    /// - One row per instant and series (the primary keys): a tick sent again (say after a
    ///   commit whose answer was lost) adds nothing.
    /// - After this store claimed venues for a holder (`claimVenues`), a point of a venue (a price
    ///   or premium's exchange, a rate's source) is written only when that venue's lease, read in
    ///   the same transaction, is this holder's and still valid at the point's time. A recorder
    ///   that stalled past its lease and comes back with a late tick writes nothing for the venues
    ///   another recorder took over, and the other recorder's ticks all come after the lease's
    ///   expiry: at every instant one recorder at most records a venue. A venue nobody leases is
    ///   written freely; a store that never claimed writes only venues nobody leases.
    ///
    /// Points of venues the holder does not hold are left out silently: that is the recorder
    /// that lost the race, not a failure. Decimals must be numbers (not NaN).
    public func record(_ tick: RecordedTick) async throws(AggError) {
        _ = try await recordCountingRows(tick)
    }

    /// `record(_:)`, answering the rows written: the points the lease check left out are not
    /// counted.
    public func recordCountingRows(_ tick: RecordedTick) async throws(AggError) -> RecordedRows {
        let batch: RecordBatch
        do throws(PostgresError) {
            batch = try RecordBatch(tick)
        } catch {
            throw error.storeError(location)
        }
        let (missing, holder) = state.withLock { state in (batch.days.subtracting(state.days), state.holder) }
        if !missing.isEmpty {
            try await perform { connection throws(PostgresError) in
                try PostgresPartitions.create(days: missing, connection)
            }
            state.withLock { $0.days.formUnion(missing) }
        }
        do throws(PostgresError) {
            return try await session.run { [clock] connection throws(PostgresError) in
                try batch.insert(holder: holder, databaseClock: clock == .database, connection)
            }
        } catch  where error.isMissingPartition {
            // Another process dropped a partition this store remembered (retention): make it
            // again and write once more.
            state.withLock { $0.days.removeAll() }
        } catch {
            throw error.storeError(location)
        }
        let written = try await perform { [clock] connection throws(PostgresError) in
            try PostgresPartitions.create(days: batch.days, connection)
            return try batch.insert(holder: holder, databaseClock: clock == .database, connection)
        }
        state.withLock { $0.days.formUnion(batch.days) }
        return written
    }

    // MARK: - Reading

    /// The recorded prices of `query.symbol` (the market's base), oldest first, then by exchange
    /// and quote currency.
    public func prices(_ query: HistoryQuery) async throws(AggError) -> [PricePoint] {
        let parameters = Self.parameters(query)
        return try await perform { connection throws(PostgresError) in
            let rows = try connection.query(
                """
                SELECT floor(extract(epoch FROM time) * 1000)::int8, exchange, base, quote, last, base_volume,
                    floor(extract(epoch FROM venue_time) * 1000)::int8, floor(extract(epoch FROM received_at) * 1000)::int8
                FROM price
                WHERE base = $1 AND time >= $2::timestamptz AND ($3::timestamptz IS NULL OR time < $3::timestamptz)
                    AND (cardinality($4::text[]) = 0 OR exchange = ANY ($4::text[]))
                ORDER BY time, exchange, quote
                """, parameters)
            return try rows.values.map { row throws(PostgresError) in
                var reader = RowReader(row)
                return PricePoint(
                    time: try reader.timestamp(), exchange: try reader.text(),
                    market: Market(base: try reader.text(), quote: try reader.text()),
                    last: try reader.decimal(), baseVolume: try reader.optionalDecimal(),
                    venueTime: try reader.optionalTimestamp(), receivedAt: try reader.optionalTimestamp())
            }
        }
    }

    /// The recorded premiums of `query.symbol`, oldest first, then by exchange and basis.
    public func premiums(_ query: HistoryQuery) async throws(AggError) -> [PremiumPoint] {
        let parameters = Self.parameters(query)
        return try await perform { connection throws(PostgresError) in
            let rows = try connection.query(
                """
                SELECT floor(extract(epoch FROM time) * 1000)::int8, exchange, symbol, basis, fx_source, percent
                FROM premium
                WHERE symbol = $1 AND time >= $2::timestamptz AND ($3::timestamptz IS NULL OR time < $3::timestamptz)
                    AND (cardinality($4::text[]) = 0 OR exchange = ANY ($4::text[]))
                ORDER BY time, exchange, basis
                """, parameters)
            return try rows.values.map { row throws(PostgresError) in
                var reader = RowReader(row)
                return PremiumPoint(
                    time: try reader.timestamp(), exchange: try reader.text(), symbol: try reader.text(),
                    basis: try reader.text(), fxSource: try reader.text(), percent: try reader.decimal())
            }
        }
    }

    private static func parameters(_ query: HistoryQuery) -> [String?] {
        [
            query.symbol, query.since.description, query.until?.description,
            PostgresArray.literal(query.exchanges),
        ]
    }

    // MARK: - Retention

    /// Deletes the points recorded before `cutoff` and answers how many went.
    ///
    /// Whole days first: every partition that ends at or before `cutoff` is dropped (counted,
    /// then dropped, whatever `limit` says: dropping a day costs the same for one row or a
    /// million, and holds the tables' lock for milliseconds). When no such day is left, at most
    /// `limit` of the oldest rows of the boundary day that are before `cutoff` are deleted, in
    /// one short transaction. A recorder calls it until it answers 0.
    public func prune(before cutoff: Timestamp, limit: Int) async throws(AggError) -> Int {
        let boundary = PostgresPartitions.day(of: cutoff)
        let outcome = try await perform { connection throws(PostgresError) -> PruneOutcome in
            try connection.transaction { () throws(PostgresError) -> PruneOutcome in
                try connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.partitionLock))")
                var dropped = 0
                for table in PostgresPartitions.tables {
                    for partition in try PostgresPartitions.partitions(of: table, connection)
                    where PostgresPartitions.isPartition(partition.name, of: table, before: boundary) {
                        let count = try connection.query("SELECT count(*) FROM \(partition.identifier)")
                        dropped += Int(count.values.first?.first.flatMap { $0 } ?? "") ?? 0
                        try connection.executeScript("DROP TABLE \(partition.identifier)")
                    }
                }
                if dropped > 0 || limit <= 0 { return PruneOutcome(rows: dropped, droppedDays: dropped > 0) }
                var deleted = 0
                for (table, key) in [
                    ("price", "base, time, exchange, quote"), ("rate", "base, quote, time, source"),
                    ("premium", "symbol, time, exchange, basis"),
                ] where deleted < limit {
                    deleted +=
                        try connection.query(
                            """
                            DELETE FROM \(table) WHERE (\(key)) IN
                                (SELECT \(key) FROM \(table) WHERE time < $1::timestamptz ORDER BY time LIMIT $2)
                            """, [cutoff.description, String(limit - deleted)]
                        ).changed
                }
                return PruneOutcome(rows: deleted, droppedDays: false)
            }
        }
        if outcome.droppedDays {
            // Days were dropped: forget which partitions exist, so that the next tick checks.
            state.withLock { $0.days.removeAll() }
        }
        return outcome.rows
    }

    /// Deletes the points older than `retainingSeconds` as the database's clock (`now()`) has
    /// it, not `now`, the recorder's: a recorder whose clock runs days fast drops nothing that
    /// is inside the retention. Whole days go only when their partition ends at or before that
    /// cutoff, so a dropped partition never holds a row newer than the retention.
    public func prune(retainingSeconds: Int64, now: Timestamp, limit: Int) async throws(AggError) -> Int {
        let reference: Timestamp
        switch clock {
        case .caller:
            reference = now
        case .database:
            reference = try await perform { connection throws(PostgresError) -> Timestamp in
                let rows = try connection.query("SELECT floor(extract(epoch FROM now()) * 1000)::int8")
                guard let text = rows.values.first?.first ?? nil, let milliseconds = Int64(text) else {
                    throw PostgresError(.data, "the server's clock could not be read")
                }
                return Timestamp(millisecondsSince1970: milliseconds)
            }
        }
        guard let cutoff = RetentionCutoff.before(reference, retainingSeconds: retainingSeconds) else { return 0 }
        return try await prune(before: cutoff, limit: limit)
    }

    private struct PruneOutcome: Sendable {
        var rows: Int
        var droppedDays: Bool
    }

    // MARK: - Alert states

    /// The stored state of every alert rule, by rule.
    public func alertStates() async throws(AggError) -> [AlertState] {
        try await perform { connection throws(PostgresError) in
            let rows = try connection.query(
                "SELECT rule, active, floor(extract(epoch FROM last_fired) * 1000)::int8 FROM alert_state ORDER BY rule"
            )
            return try rows.values.map { row throws(PostgresError) in
                var reader = RowReader(row)
                return AlertState(
                    rule: try reader.text(), active: try reader.boolean(), lastFired: try reader.optionalTimestamp())
            }
        }
    }

    /// Stores `states`, replacing those of the same rules, in one transaction (the last state
    /// given for a rule wins).
    public func saveAlertStates(_ states: [AlertState]) async throws(AggError) {
        var latest: [String: AlertState] = [:]
        for state in states { latest[state.rule] = state }
        let ordered = latest.values.sorted { $0.rule < $1.rule }
        guard !ordered.isEmpty else { return }
        let parameters = [
            PostgresArray.literal(ordered.map(\.rule)),
            PostgresArray.literal(ordered.map { $0.active ? "true" : "false" }),
            PostgresArray.literal(ordered.map { $0.lastFired?.description }),
        ]
        try await perform { connection throws(PostgresError) in
            try connection.query(
                """
                INSERT INTO alert_state (rule, active, last_fired)
                SELECT * FROM unnest($1::text[], $2::boolean[], $3::timestamptz[])
                ON CONFLICT (rule) DO UPDATE SET active = EXCLUDED.active, last_fired = EXCLUDED.last_fired
                """, parameters)
        }
    }

    // MARK: - Leases

    /// Claims, renews or keeps the venues `holder` may record until `expiry`, among `venues`,
    /// and answers those it holds now.
    ///
    /// Expiry is judged by the database's clock: a lease lasts `expiry - now` (the recorder's
    /// lease length) from the server's `now()`, and is taken over once the server's `now()`
    /// passes it. A recorder whose clock is a minute fast, once killed, holds its venues for the
    /// lease length, not a minute more.
    ///
    /// One statement: `INSERT ... ON CONFLICT (venue) DO UPDATE ... WHERE the lease expired at
    /// now OR it is holder's own ... RETURNING venue`. PostgreSQL locks each venue's row while it
    /// decides, so of several holders claiming one venue exactly one wins; the rows are taken in
    /// venue order, so two claims never deadlock. A lease is valid up to, not at, its expiry.
    /// From now on `record` writes as `holder`.
    public func claimVenues(_ venues: [String], holder: String, now: Timestamp, expiry: Timestamp)
        async throws(AggError) -> Set<String>
    {
        let unique = Array(Set(venues)).sorted()
        state.withLock { $0.holder = holder }
        guard !unique.isEmpty else { return [] }
        let length = max(0, expiry.millisecondsSince1970 - now.millisecondsSince1970)
        // NULL for "the server's now()".
        let given: String? = clock == .caller ? now.description : nil
        let parameters = [PostgresArray.literal(unique), holder, given, "\(length) milliseconds"]
        let rows = try await perform { connection throws(PostgresError) in
            try connection.query(
                """
                INSERT INTO venue_lease (venue, holder, expiry)
                SELECT venue, $2, coalesce($3::timestamptz, now()) + $4::interval
                FROM unnest($1::text[]) AS venue ORDER BY venue
                ON CONFLICT (venue) DO UPDATE SET holder = EXCLUDED.holder, expiry = EXCLUDED.expiry
                WHERE venue_lease.expiry <= coalesce($3::timestamptz, now()) OR venue_lease.holder = EXCLUDED.holder
                RETURNING venue
                """, parameters)
        }
        return Set(rows.values.compactMap { $0.first ?? nil })
    }

    public func releaseVenues(holder: String) async throws(AggError) {
        _ = try await perform { connection throws(PostgresError) in
            try connection.query("DELETE FROM venue_lease WHERE holder = $1", [holder])
        }
    }
}
