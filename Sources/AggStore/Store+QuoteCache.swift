import AggCore

extension Store {
    /// Remembers `quotes` as the last seen from their venues, replacing the cached quote of the
    /// same exchange and market.
    ///
    /// A cached quote fetched later than `fetchedAt` is kept: when two processes refresh the
    /// same market, the slower one does not put an older quote back.
    public func cacheQuotes(_ quotes: [Quote], fetchedAt: Timestamp) throws(AggError) {
        guard !quotes.isEmpty else { return }
        try withConnection("cache quotes in") { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in
                let upsert = try connection.prepare(
                    """
                    INSERT INTO quote_cache (
                        exchange, base, quote, last, open, high, low, previous_close, change,
                        change_percent, base_volume, quote_volume, timestamp, fetched_at
                    ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (exchange, base, quote) DO UPDATE SET
                        last = excluded.last, open = excluded.open, high = excluded.high,
                        low = excluded.low, previous_close = excluded.previous_close,
                        change = excluded.change, change_percent = excluded.change_percent,
                        base_volume = excluded.base_volume, quote_volume = excluded.quote_volume,
                        timestamp = excluded.timestamp, fetched_at = excluded.fetched_at
                    WHERE excluded.fetched_at >= quote_cache.fetched_at
                    """
                )
                for quote in quotes {
                    upsert.reset()
                    try upsert.bind([
                        .text(quote.exchange), .text(quote.market.base), .text(quote.market.quote),
                        try .decimal(quote.last), try .decimal(quote.open), try .decimal(quote.high),
                        try .decimal(quote.low), try .decimal(quote.previousClose), try .decimal(quote.change),
                        try .decimal(quote.changePercent), try .decimal(quote.baseVolume),
                        try .decimal(quote.quoteVolume),
                        .integer(quote.timestamp?.millisecondsSince1970),
                        .integer(fetchedAt.millisecondsSince1970),
                    ])
                    try upsert.run()
                }
            }
        }
    }

    /// The last quote cached for `market` on `exchange`, with when it was fetched.
    public func cachedQuote(
        exchange: String, market: Market
    ) throws(AggError) -> (quote: Quote, fetchedAt: Timestamp)? {
        try withConnection("read the cached \(exchange) \(market) quote from") { connection throws(SQLiteError) in
            try connection.query(
                """
                SELECT last, open, high, low, previous_close, change, change_percent, base_volume,
                    quote_volume, timestamp, fetched_at
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
                    baseVolume: try row.decimal(at: 7),
                    quoteVolume: try row.decimal(at: 8),
                    timestamp: row.int64(at: 9).map(Timestamp.init(millisecondsSince1970:))
                )
                return (quote: quote, fetchedAt: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 10)))
            }.first
        }
    }
}
