import AggCore

extension Store {
    /// What became of a batch of quotes given to `cacheQuotes`.
    public enum CacheWrite: Sendable, Equatable {
        /// The batch is stored (or was empty).
        case written
        /// Another connection held the write lock longer than `cacheWriteWaitMilliseconds`:
        /// nothing was written, and the cache keeps what it had.
        case skippedBusy
    }

    /// How long a cache write waits for another process's write lock before it gives up.
    public static let cacheWriteWaitMilliseconds: Int32 = 100

    /// Remembers `quotes` as the last seen from their venues, replacing the cached quote of the
    /// same exchange and market.
    ///
    /// A cached quote fetched later than `fetchedAt` is kept: when two processes refresh the
    /// same market, the slower one does not put an older quote back.
    ///
    /// The batch is one transaction through one prepared statement, texts and decimals bound
    /// in place from one reused buffer. The cache must never hold up a quote: when another
    /// process keeps the write lock for more than `cacheWriteWaitMilliseconds`, the batch is
    /// skipped (`.skippedBusy`) rather than waited for.
    @discardableResult
    public func cacheQuotes(_ quotes: [Quote], fetchedAt: Timestamp) throws(AggError) -> CacheWrite {
        guard !quotes.isEmpty else { return .written }
        return try withConnection("cache quotes in") { connection throws(SQLiteError) -> CacheWrite in
            do throws(SQLiteError) {
                try connection.transaction(waitingAtMost: Store.cacheWriteWaitMilliseconds) { () throws(SQLiteError) in
                    try write(quotes, fetchedAt: fetchedAt, connection: connection)
                }
            } catch  where error.isBusy {
                return .skippedBusy
            }
            return .written
        }
    }

    /// Replaces the cached quote of the same exchange and market outright.
    private static let replace = """
        INSERT OR REPLACE INTO quote_cache (
            exchange, base, quote, last, open, high, low, previous_close, change,
            change_percent, base_volume, quote_volume, timestamp, fetched_at, change_basis
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Replaces the cached quote of the same exchange and market unless it was fetched later.
    private static let upsertUnlessNewer = """
        INSERT INTO quote_cache (
            exchange, base, quote, last, open, high, low, previous_close, change,
            change_percent, base_volume, quote_volume, timestamp, fetched_at, change_basis
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (exchange, base, quote) DO UPDATE SET
            last = excluded.last, open = excluded.open, high = excluded.high,
            low = excluded.low, previous_close = excluded.previous_close,
            change = excluded.change, change_percent = excluded.change_percent,
            base_volume = excluded.base_volume, quote_volume = excluded.quote_volume,
            timestamp = excluded.timestamp, fetched_at = excluded.fetched_at,
            change_basis = excluded.change_basis
        WHERE excluded.fetched_at >= quote_cache.fetched_at
        """

    private func write(_ quotes: [Quote], fetchedAt: Timestamp, connection: SQLiteConnection) throws(SQLiteError) {
        // Replacing rows outright costs about a third less than the upsert that compares fetch
        // times, and ends the same unless the cache already holds a quote of one of these venues
        // fetched later than this batch (another process's newer run). That is checked first,
        // inside this transaction, so that no writer can slip in between.
        let newer = try connection.prepare("SELECT 1 FROM quote_cache WHERE exchange = ? AND fetched_at > ? LIMIT 1")
        var anyNewer = false
        for exchange in Set(quotes.map(\.exchange)) where !anyNewer {
            newer.reset()
            try newer.bind([.text(exchange), .integer(fetchedAt.millisecondsSince1970)])
            anyNewer = try newer.step()
        }
        let upsert = try connection.prepare(anyNewer ? Self.upsertUnlessNewer : Self.replace)
        let arena = SQLiteTextArena()
        for quote in quotes {
            try upsert.runOnce(arena: arena) { (row: inout SQLiteParameters) throws(SQLiteError) in
                try row.bind(quote.exchange, at: 1)
                try row.bind(quote.market.base, at: 2)
                try row.bind(quote.market.quote, at: 3)
                try row.bind(decimal: quote.last, at: 4)
                try row.bind(decimal: quote.open, at: 5)
                try row.bind(decimal: quote.high, at: 6)
                try row.bind(decimal: quote.low, at: 7)
                try row.bind(decimal: quote.previousClose, at: 8)
                try row.bind(decimal: quote.change, at: 9)
                try row.bind(decimal: quote.changePercent, at: 10)
                try row.bind(decimal: quote.baseVolume, at: 11)
                try row.bind(decimal: quote.quoteVolume, at: 12)
                try row.bind(quote.timestamp?.millisecondsSince1970, at: 13)
                try row.bind(fetchedAt.millisecondsSince1970, at: 14)
                try row.bind(quote.changeBasis?.rawValue, at: 15)
            }
        }
    }

    /// The last quote cached for `market` on `exchange`, with when it was fetched, and its
    /// change basis as it was cached (`nil`, unknown, for quotes cached before agg kept it).
    public func cachedQuote(
        exchange: String, market: Market
    ) throws(AggError) -> (quote: Quote, fetchedAt: Timestamp)? {
        try withConnection("read the cached \(exchange) \(market) quote from") { connection throws(SQLiteError) in
            try connection.query(
                """
                SELECT last, open, high, low, previous_close, change, change_percent, base_volume,
                    quote_volume, timestamp, fetched_at, change_basis
                FROM quote_cache WHERE exchange = ? AND base = ? AND quote = ?
                """,
                [.text(exchange), .text(market.base), .text(market.quote)]
            ) { row throws(SQLiteError) in
                let quote = Quote(
                    exchange: exchange, market: market,
                    last: try row.requiredDecimal(at: 0),
                    open: try row.decimal(at: 1),
                    high: try row.decimal(at: 2),
                    low: try row.decimal(at: 3),
                    previousClose: try row.decimal(at: 4),
                    change: try row.decimal(at: 5),
                    changePercent: try row.decimal(at: 6),
                    // As cached: a basis this agg does not know, or none (rows cached before
                    // the basis was kept), is unknown.
                    changeBasis: row.text(at: 11).flatMap(ChangeBasis.init(rawValue:)),
                    baseVolume: try row.decimal(at: 7),
                    quoteVolume: try row.decimal(at: 8),
                    timestamp: row.int64(at: 9).map(Timestamp.init(millisecondsSince1970:))
                )
                return (quote: quote, fetchedAt: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 10)))
            }.first
        }
    }
}
