import AggCore
import FoundationEssentials

extension Store {
    /// Stores a rate table as a snapshot keyed by its source, base and `asOf`, then keeps only
    /// the newest `keep` snapshots of that source and base, dropping older ones with their rates.
    /// Other sources' snapshots of the same base are left alone.
    ///
    /// A snapshot of the same source, base and `asOf` already stored is replaced, rates and next
    /// update included: the provider's latest answer for a moment is the best one (it may
    /// correct a rate or move its next update), and `agg rates --refresh` asks precisely to get it.
    ///
    /// - Parameter keep: how many snapshots of the source and base to keep, at least 1. A table
    ///   older than the `keep` newest ones is therefore dropped as soon as it is stored.
    /// - Returns: `true` when the snapshot was new; `false` when it replaced one of the same
    ///   source, base and `asOf`.
    /// A table with a rate that cannot be an exchange rate, or with rates its source refused
    /// (`RateTable.screened()`), is not stored: stored, it would become the "previous day"
    /// every later run compares with.
    ///
    /// - Throws: `AggError.usage` when `keep` is less than 1; `AggError.store` when the table
    ///   has implausible rates or the database fails.
    @discardableResult
    public func saveSnapshot(_ table: RateTable, keep: Int = 2) throws(AggError) -> Bool {
        try checkSnapshot(table, keep: keep)
        return try withConnection("save the \(table.base) rate snapshot in") { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> Bool in
                try Self.writeSnapshot(table, keep: keep, connection: connection)
            }
        }
    }

    /// What became of a snapshot given to `saveSnapshotUnlessBusy`.
    public enum SnapshotWrite: Sendable, Equatable {
        /// The snapshot is stored (new, or replacing one of the same source, base and `asOf`).
        case stored
        /// Another connection held the write lock longer than `cacheWriteWaitMilliseconds`:
        /// nothing was written.
        case skippedBusy
    }

    /// `saveSnapshot` for a command whose answer must not wait for the database (`agg rates`,
    /// `agg compare`): when another process holds the write lock for more than
    /// `cacheWriteWaitMilliseconds`, the snapshot is not stored (`.skippedBusy`) rather than
    /// waited for; the next run stores its own.
    ///
    /// - Throws: what `saveSnapshot` throws, except a busy database.
    public func saveSnapshotUnlessBusy(_ table: RateTable, keep: Int = 2) throws(AggError) -> SnapshotWrite {
        try checkSnapshot(table, keep: keep)
        return try withConnection("save the \(table.base) rate snapshot in") {
            connection throws(SQLiteError) -> SnapshotWrite in
            do throws(SQLiteError) {
                try connection.transaction(waitingAtMost: Store.cacheWriteWaitMilliseconds) {
                    () throws(SQLiteError) in
                    _ = try Self.writeSnapshot(table, keep: keep, connection: connection)
                }
            } catch  where error.isBusy {
                return .skippedBusy
            }
            return .stored
        }
    }

    /// Throws when `keep` is below 1 or `table` must not be stored.
    private func checkSnapshot(_ table: RateTable, keep: Int) throws(AggError) {
        guard keep >= 1 else { throw .usage("at least one rate snapshot must be kept (keep was \(keep))") }
        if let refusal = table.screened().refused.first {
            throw .store("refusing to store the \(table.base) rate snapshot: \(refusal)")
        }
    }

    /// Writes `table` inside the caller's transaction and prunes to `keep`; `true` when new.
    private static func writeSnapshot(_ table: RateTable, keep: Int, connection: SQLiteConnection)
        throws(SQLiteError) -> Bool
    {
        let existing = try connection.query(
            "SELECT id FROM rate_snapshot WHERE source = ? AND base = ? AND as_of = ?",
            [.text(table.source), .text(table.base), .integer(table.asOf.millisecondsSince1970)]
        ) { row throws(SQLiteError) in try row.requiredInt64(at: 0) }
        let id: Int64
        if let replaced = existing.first {
            id = replaced
            try connection.run(
                "UPDATE rate_snapshot SET next_update = ? WHERE id = ?",
                [.integer(table.nextUpdate?.millisecondsSince1970), .integer(id)])
            try connection.run("DELETE FROM rate WHERE snapshot_id = ?", [.integer(id)])
        } else {
            let inserted = try connection.query(
                "INSERT INTO rate_snapshot (source, base, as_of, next_update) VALUES (?, ?, ?, ?) RETURNING id",
                [
                    .text(table.source), .text(table.base), .integer(table.asOf.millisecondsSince1970),
                    .integer(table.nextUpdate?.millisecondsSince1970),
                ]
            ) { row throws(SQLiteError) in try row.requiredInt64(at: 0) }
            guard let new = inserted.first else { throw SQLiteError(invalidData: "a new snapshot got no id") }
            id = new
        }

        let insertRate = try connection.prepare(
            "INSERT INTO rate (snapshot_id, currency, value) VALUES (?, ?, ?)"
        )
        for (currency, value) in table.rates {
            insertRate.reset()
            try insertRate.bind([.integer(id), .text(currency), try .decimal(value)])
            try insertRate.run()
        }
        // Rates go with their snapshot through ON DELETE CASCADE.
        try connection.run(
            """
            DELETE FROM rate_snapshot WHERE base = ?1 AND source = ?3 AND id NOT IN (
                SELECT id FROM rate_snapshot WHERE base = ?1 AND source = ?3 ORDER BY as_of DESC LIMIT ?2
            )
            """,
            [.text(table.base), .integer(Int64(keep)), .text(table.source)]
        )
        return existing.isEmpty
    }

    /// The newest snapshot of `base` (from `source` when given, else from any source), or `nil`
    /// when none is stored.
    public func latestSnapshot(base: String, source: String? = nil) throws(AggError) -> RateTable? {
        try withConnection("read the latest \(base) rate snapshot from") { connection throws(SQLiteError) in
            let (condition, values) = Self.condition("base = ?", [.text(base)], source: source)
            return try Self.readSnapshot(connection, where: condition, values)
        }
    }

    /// The newest snapshot of `base` from `source`, when the provider's next update
    /// (`nextUpdate`) is still after `now`: the provider has nothing newer yet, so asking again
    /// would only spend its quota. `nil` otherwise, including when the snapshot has no
    /// `nextUpdate`.
    public func currentSnapshot(base: String, source: String, now: Timestamp) throws(AggError) -> RateTable? {
        guard let latest = try latestSnapshot(base: base, source: source),
            let nextUpdate = latest.nextUpdate, nextUpdate > now
        else { return nil }
        return latest
    }

    /// The most recent snapshot of `base` (from `source` when given, else from any source)
    /// strictly older than `asOf`, or `nil` when none is.
    public func snapshot(base: String, source: String? = nil, olderThan asOf: Timestamp) throws(AggError)
        -> RateTable?
    {
        try withConnection("read an earlier \(base) rate snapshot from") { connection throws(SQLiteError) in
            let (condition, values) = Self.condition(
                "base = ? AND as_of < ?", [.text(base), .integer(asOf.millisecondsSince1970)], source: source)
            return try Self.readSnapshot(connection, where: condition, values)
        }
    }

    /// How many snapshots of `base` are stored (from `source` when given, else from any source).
    public func snapshotCount(base: String, source: String? = nil) throws(AggError) -> Int {
        try withConnection("count the \(base) rate snapshots in") { connection throws(SQLiteError) in
            let (condition, values) = Self.condition("base = ?", [.text(base)], source: source)
            let count = try connection.query(
                "SELECT count(*) FROM rate_snapshot WHERE \(condition)", values
            ) { row throws(SQLiteError) in try row.requiredInt64(at: 0) }
            return Int(count.first ?? 0)
        }
    }

    /// `condition` narrowed to `source` when one is given.
    private static func condition(_ condition: String, _ values: [SQLiteValue], source: String?)
        -> (String, [SQLiteValue])
    {
        guard let source else { return (condition, values) }
        return (condition + " AND source = ?", values + [.text(source)])
    }

    /// The newest snapshot matching `condition`, read with its rates in one read transaction so
    /// that a concurrent prune cannot separate the two.
    private static func readSnapshot(
        _ connection: SQLiteConnection, where condition: String, _ values: [SQLiteValue]
    ) throws(SQLiteError) -> RateTable? {
        try connection.transaction(.deferred) { () throws(SQLiteError) -> RateTable? in
            let headers = try connection.query(
                """
                SELECT id, source, base, as_of, next_update FROM rate_snapshot
                WHERE \(condition) ORDER BY as_of DESC LIMIT 1
                """,
                values
            ) { row throws(SQLiteError) in
                (
                    id: try row.requiredInt64(at: 0),
                    table: RateTable(
                        source: try row.requiredText(at: 1),
                        base: try row.requiredText(at: 2),
                        rates: [:],
                        asOf: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 3)),
                        nextUpdate: row.int64(at: 4).map(Timestamp.init(millisecondsSince1970:))
                    )
                )
            }
            guard let header = headers.first else { return nil }
            var table = header.table
            let rates = try connection.query(
                "SELECT currency, value FROM rate WHERE snapshot_id = ?", [.integer(header.id)]
            ) { row throws(SQLiteError) in
                (try row.requiredText(at: 0), try row.requiredDecimal(at: 1))
            }
            table.rates = Dictionary(rates, uniquingKeysWith: { first, _ in first })
            return table
        }
    }
}
