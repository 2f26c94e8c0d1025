import AggCore

/// The daily partitions of the price, rate and premium tables.
///
/// Each table is range-partitioned on `time` by UTC day: `price_p20261201` holds
/// [2026-12-01 00:00Z, 2026-12-02 00:00Z). Partitions are made when a tick needs them (and the
/// next day's along with them, so that the first tick after midnight finds its partition), and
/// retention drops whole partitions: dropping a day's table costs the same whatever its size
/// and leaves nothing for VACUUM, where deleting its rows would rewrite them all.
///
/// Partition names are made here from day numbers, never from outside text, so they are the
/// only identifiers agg writes into SQL.
enum PostgresPartitions {
    /// The partitioned tables.
    static let tables = ["price", "rate", "premium"]

    /// The milliseconds in a day.
    static let dayMilliseconds: Int64 = 86_400_000

    /// The UTC day (days since 1970-01-01) of `time`.
    static func day(of time: Timestamp) -> Int64 {
        let (quotient, remainder) = time.millisecondsSince1970.quotientAndRemainder(dividingBy: dayMilliseconds)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The date of `day` as `YYYYMMDD` and as `YYYY-MM-DD`, or `nil` outside the years
    /// 1 to 9999 that agg keeps.
    static func date(of day: Int64) -> (compact: String, iso: String)? {
        let (multiplied, overflow) = day.multipliedReportingOverflow(by: dayMilliseconds)
        guard !overflow else { return nil }
        let parts = Timestamp(millisecondsSince1970: multiplied).civilParts(offsetSeconds: 0)
        guard (1...9999).contains(parts.year) else { return nil }
        func pad(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        let (year, month, dayOfMonth) = (pad(parts.year, 4), pad(parts.month, 2), pad(parts.day, 2))
        return ("\(year)\(month)\(dayOfMonth)", "\(year)-\(month)-\(dayOfMonth)")
    }

    /// The name of `table`'s partition for `day`.
    static func name(_ table: String, day: Int64) -> String? {
        date(of: day).map { "\(table)_p\($0.compact)" }
    }

    /// Whether `name` is one of `table`'s partitions as agg names them (`price_p20261201`):
    /// these names sort in the order of their days.
    static func isPartition(_ name: String, of table: String) -> Bool {
        let prefix = "\(table)_p"
        guard name.hasPrefix(prefix) else { return false }
        let digits = name.utf8.dropFirst(prefix.utf8.count)
        return digits.count == 8 && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Whether `name` is one of `table`'s partitions and holds only times before the UTC day
    /// `boundary` starts.
    static func isPartition(_ name: String, of table: String, before boundary: Int64) -> Bool {
        guard isPartition(name, of: table) else { return false }
        guard let boundaryName = self.name(table, day: boundary) else {
            // The boundary is outside the years 1 to 9999: after every partition, or before.
            return boundary > 0
        }
        return name < boundaryName
    }

    /// Makes every table's partition for each of `days` that does not exist yet, in one
    /// transaction under the partition lock, so that recorders making the same day at once
    /// neither fail nor wait long.
    static func create(days: Set<Int64>, _ connection: PostgresConnection) throws(PostgresError) {
        var statements: [String] = []
        for day in days.sorted() {
            guard let date = date(of: day), let next = self.date(of: day + 1) else {
                throw PostgresError(.data, "a point's time is outside the years 1 to 9999")
            }
            for table in tables {
                statements.append(
                    "CREATE TABLE IF NOT EXISTS \(table)_p\(date.compact) PARTITION OF \(table) "
                        + "FOR VALUES FROM ('\(date.iso) 00:00:00+00') TO ('\(next.iso) 00:00:00+00')")
            }
        }
        guard !statements.isEmpty else { return }
        try connection.transaction { () throws(PostgresError) in
            try connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.partitionLock))")
            // IF NOT EXISTS still notices an existing table; the notices are not wanted.
            try connection.query("SET LOCAL client_min_messages = warning")
            try connection.executeScript(statements.joined(separator: ";\n"))
        }
    }

    /// `table`'s partitions that agg made, oldest first: each one's name, and the identifier to
    /// write in SQL (PostgreSQL's own quoting, schema-qualified when the search path needs it).
    static func partitions(of table: String, _ connection: PostgresConnection) throws(PostgresError)
        -> [(name: String, identifier: String)]
    {
        let rows = try connection.query(
            """
            SELECT c.relname, i.inhrelid::regclass::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = $1::regclass
            """, [table])
        return rows.values.compactMap { row -> (name: String, identifier: String)? in
            guard row.count == 2, let name = row[0], let identifier = row[1], isPartition(name, of: table) else {
                return nil
            }
            return (name, identifier)
        }.sorted { $0.name < $1.name }
    }
}
