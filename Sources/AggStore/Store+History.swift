import AggCore
import FoundationEssentials

/// The embedded history store: what `agg record` writes and `agg history` reads.
///
/// Every write is one `BEGIN IMMEDIATE` transaction. Waiting for another process's write lock
/// must not hold a thread of the cooperative pool, so a write waits inside SQLite at most
/// `historyLockPollMilliseconds`, then gives the thread back (`Task.sleep`) and tries again,
/// up to `historyLockWaitSeconds` in all. Reads run in WAL snapshots and never wait for writers.
extension Store: HistoryStore {
    /// How long one attempt at a history write waits inside SQLite for another connection's lock.
    public static let historyLockPollMilliseconds: Int32 = 10
    /// How long a history write keeps trying, in all, before it fails naming the file.
    public static let historyLockWaitSeconds: Int64 = 10

    public func record(_ tick: RecordedTick) async throws(AggError) {
        guard !(tick.prices.isEmpty && tick.rates.isEmpty && tick.premiums.isEmpty) else { return }
        try await historyWrite("record a tick in") { connection throws(SQLiteError) in
            try Self.write(tick, connection: connection)
        }
    }

    public func prices(_ query: HistoryQuery) async throws(AggError) -> [PricePoint] {
        try withConnection("read the recorded \(query.symbol) prices from") { connection throws(SQLiteError) in
            let (condition, values) = Self.condition(query, symbolColumn: "base")
            return try connection.query(
                """
                SELECT time, exchange, quote, last, base_volume, venue_time, received_at FROM price_point
                WHERE \(condition) ORDER BY time, exchange, quote
                """,
                values
            ) { row throws(SQLiteError) in
                PricePoint(
                    time: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 0)),
                    exchange: try row.requiredText(at: 1),
                    market: Market(base: query.symbol, quote: try row.requiredText(at: 2)),
                    last: try row.requiredDecimal(at: 3),
                    baseVolume: try row.decimal(at: 4),
                    venueTime: row.int64(at: 5).map(Timestamp.init(millisecondsSince1970:)),
                    receivedAt: row.int64(at: 6).map(Timestamp.init(millisecondsSince1970:)))
            }
        }
    }

    public func premiums(_ query: HistoryQuery) async throws(AggError) -> [PremiumPoint] {
        try withConnection("read the recorded \(query.symbol) premiums from") { connection throws(SQLiteError) in
            let (condition, values) = Self.condition(query, symbolColumn: "symbol")
            return try connection.query(
                """
                SELECT time, exchange, basis, fx_source, percent FROM premium_point
                WHERE \(condition) ORDER BY time, exchange, basis
                """,
                values
            ) { row throws(SQLiteError) in
                PremiumPoint(
                    time: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 0)),
                    exchange: try row.requiredText(at: 1),
                    symbol: query.symbol,
                    basis: try row.requiredText(at: 2),
                    fxSource: try row.requiredText(at: 3),
                    percent: try row.requiredDecimal(at: 4))
            }
        }
    }

    /// The recorded FX rates from `base` to `quote` since `since` (every source), oldest first.
    public func rates(base: String, quote: String, since: Timestamp) throws(AggError) -> [RatePoint] {
        try withConnection("read the recorded \(base)/\(quote) rates from") { connection throws(SQLiteError) in
            try connection.query(
                """
                SELECT time, source, rate FROM rate_point
                WHERE base = ? AND quote = ? AND time >= ? ORDER BY time, source
                """,
                [.text(base), .text(quote), .integer(since.millisecondsSince1970)]
            ) { row throws(SQLiteError) in
                RatePoint(
                    time: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 0)),
                    source: try row.requiredText(at: 1), base: base, quote: quote,
                    rate: try row.requiredDecimal(at: 2))
            }
        }
    }

    /// The tables `prune` deletes from, in order.
    private static let prunedTables = ["price_point", "rate_point", "premium_point"]

    public func prune(before cutoff: Timestamp, limit: Int) async throws(AggError) -> Int {
        guard limit > 0 else { return 0 }
        return try await historyWrite("prune the history in") { connection throws(SQLiteError) -> Int in
            var deleted = 0
            // The time index finds the oldest rows without scanning the table.
            for table in Self.prunedTables where deleted < limit {
                deleted += try connection.run(
                    """
                    DELETE FROM \(table) WHERE rowid IN (
                        SELECT rowid FROM \(table) WHERE time < ? ORDER BY time LIMIT ?
                    )
                    """,
                    [.integer(cutoff.millisecondsSince1970), .integer(Int64(limit - deleted))])
            }
            return deleted
        }
    }

    public func alertStates() async throws(AggError) -> [AlertState] {
        try withConnection("read the alert states from") { connection throws(SQLiteError) in
            try connection.query("SELECT rule, active, last_fired FROM alert_state ORDER BY rule") {
                row throws(SQLiteError) in
                AlertState(
                    rule: try row.requiredText(at: 0), active: try row.requiredInt64(at: 1) != 0,
                    lastFired: row.int64(at: 2).map(Timestamp.init(millisecondsSince1970:)))
            }
        }
    }

    public func saveAlertStates(_ states: [AlertState]) async throws(AggError) {
        guard !states.isEmpty else { return }
        try await historyWrite("save the alert states in") { connection throws(SQLiteError) in
            let upsert = try connection.prepare(
                "INSERT OR REPLACE INTO alert_state (rule, active, last_fired) VALUES (?, ?, ?)")
            for state in states {
                upsert.reset()
                try upsert.bind([
                    .text(state.rule), .integer(state.active ? 1 : 0),
                    .integer(state.lastFired?.millisecondsSince1970),
                ])
                try upsert.run()
            }
        }
    }

    public func claimVenues(_ venues: [String], holder: String, now: Timestamp, expiry: Timestamp)
        async throws(AggError) -> Set<String>
    {
        guard !venues.isEmpty else { return [] }
        return try await historyWrite("claim venues in") { connection throws(SQLiteError) -> Set<String> in
            // A lease is taken when free, renewed by its holder, or taken over once it expired.
            let claim = try connection.prepare(
                """
                INSERT INTO venue_lease (venue, holder, expiry) VALUES (?1, ?2, ?3)
                ON CONFLICT (venue) DO UPDATE SET holder = excluded.holder, expiry = excluded.expiry
                WHERE venue_lease.holder = excluded.holder OR venue_lease.expiry <= ?4
                """)
            let read = try connection.prepare("SELECT holder FROM venue_lease WHERE venue = ?")
            var held: Set<String> = []
            for venue in Set(venues) {
                claim.reset()
                try claim.bind([
                    .text(venue), .text(holder), .integer(expiry.millisecondsSince1970),
                    .integer(now.millisecondsSince1970),
                ])
                try claim.run()
                read.reset()
                try read.bind([.text(venue)])
                if try read.step(), read.text(at: 0) == holder { held.insert(venue) }
            }
            return held
        }
    }

    public func releaseVenues(holder: String) async throws(AggError) {
        _ = try await historyWrite("release venues in") { connection throws(SQLiteError) in
            try connection.run("DELETE FROM venue_lease WHERE holder = ?", [.text(holder)])
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, waiting for another connection's write
    /// lock without holding a thread (see the type's note).
    func historyWrite<Result: Sendable>(
        _ action: String, _ body: (SQLiteConnection) throws(SQLiteError) -> Result
    ) async throws(AggError) -> Result {
        let deadline = ContinuousClock.now + .seconds(Self.historyLockWaitSeconds)
        while true {
            let done: Result? = try withConnection(action) { connection throws(SQLiteError) -> Result? in
                do throws(SQLiteError) {
                    return try connection.transaction(waitingAtMost: Self.historyLockPollMilliseconds) {
                        () throws(SQLiteError) -> Result in try body(connection)
                    }
                } catch  where error.isBusy {
                    return nil
                }
            }
            if let done { return done }
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                throw .store(
                    "cannot \(action) \(path): another process kept the database locked for over "
                        + "\(Self.historyLockWaitSeconds) s")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func write(_ tick: RecordedTick, connection: SQLiteConnection) throws(SQLiteError) {
        let arena = SQLiteTextArena()
        if !tick.prices.isEmpty {
            let insert = try connection.prepare(
                """
                INSERT INTO price_point (time, exchange, base, quote, last, base_volume, venue_time, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for point in tick.prices {
                try insert.runOnce(arena: arena) { (row: inout SQLiteParameters) throws(SQLiteError) in
                    try row.bind(point.time.millisecondsSince1970, at: 1)
                    try row.bind(point.exchange, at: 2)
                    try row.bind(point.market.base, at: 3)
                    try row.bind(point.market.quote, at: 4)
                    try row.bind(decimal: point.last, at: 5)
                    try row.bind(decimal: point.baseVolume, at: 6)
                    try row.bind(point.venueTime?.millisecondsSince1970, at: 7)
                    try row.bind(point.receivedAt?.millisecondsSince1970, at: 8)
                }
            }
        }
        if !tick.rates.isEmpty {
            let insert = try connection.prepare(
                "INSERT INTO rate_point (time, source, base, quote, rate) VALUES (?, ?, ?, ?, ?)")
            for point in tick.rates {
                try insert.runOnce(arena: arena) { (row: inout SQLiteParameters) throws(SQLiteError) in
                    try row.bind(point.time.millisecondsSince1970, at: 1)
                    try row.bind(point.source, at: 2)
                    try row.bind(point.base, at: 3)
                    try row.bind(point.quote, at: 4)
                    try row.bind(decimal: point.rate, at: 5)
                }
            }
        }
        if !tick.premiums.isEmpty {
            let insert = try connection.prepare(
                """
                INSERT INTO premium_point (time, exchange, symbol, basis, fx_source, percent)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            for point in tick.premiums {
                try insert.runOnce(arena: arena) { (row: inout SQLiteParameters) throws(SQLiteError) in
                    try row.bind(point.time.millisecondsSince1970, at: 1)
                    try row.bind(point.exchange, at: 2)
                    try row.bind(point.symbol, at: 3)
                    try row.bind(point.basis, at: 4)
                    try row.bind(point.fxSource, at: 5)
                    try row.bind(decimal: point.percent, at: 6)
                }
            }
        }
    }

    /// `symbolColumn = ? AND time >= ? [AND time < ?] [AND exchange IN (...)]` for `query`.
    private static func condition(_ query: HistoryQuery, symbolColumn: String) -> (String, [SQLiteValue]) {
        var condition = "\(symbolColumn) = ? AND time >= ?"
        var values: [SQLiteValue] = [.text(query.symbol), .integer(query.since.millisecondsSince1970)]
        if let until = query.until {
            condition += " AND time < ?"
            values.append(.integer(until.millisecondsSince1970))
        }
        if !query.exchanges.isEmpty {
            condition += " AND exchange IN (" + query.exchanges.map { _ in "?" }.joined(separator: ", ") + ")"
            values += query.exchanges.map { .text($0) }
        }
        return (condition, values)
    }
}
