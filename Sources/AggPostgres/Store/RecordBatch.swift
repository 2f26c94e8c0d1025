import AggCore
import AggJSON
import FoundationEssentials

/// One tick's points as the array parameters of three `INSERT ... SELECT FROM unnest(...)`
/// statements: one round trip per table, whatever the number of points.
struct RecordBatch: Sendable {
    private var prices: [String?] = []
    private var rates: [String?] = []
    private var premiums: [String?] = []
    private var counts = (prices: 0, rates: 0, premiums: 0)
    /// The UTC days the points fall on, and the day after the tick's, made ahead.
    private(set) var days: Set<Int64> = []

    init(_ tick: RecordedTick) throws(PostgresError) {
        let tickDay = PostgresPartitions.day(of: tick.time)
        days = [tickDay, tickDay + 1]
        var time: [String?] = []
        var exchange: [String?] = []
        var base: [String?] = []
        var quote: [String?] = []
        var last: [String?] = []
        var volume: [String?] = []
        var venueTime: [String?] = []
        var receivedAt: [String?] = []
        for point in tick.prices {
            days.insert(PostgresPartitions.day(of: point.time))
            time.append(point.time.description)
            exchange.append(point.exchange)
            base.append(point.market.base)
            quote.append(point.market.quote)
            last.append(try Self.text(point.last))
            volume.append(try point.baseVolume.map { value throws(PostgresError) in try Self.text(value) })
            venueTime.append(point.venueTime?.description)
            receivedAt.append(point.receivedAt?.description)
        }
        prices = [time, exchange, base, quote, last, volume, venueTime, receivedAt].map(PostgresArray.literal)
        counts.prices = tick.prices.count

        var source: [String?] = []
        var rate: [String?] = []
        (time, base, quote) = ([], [], [])
        for point in tick.rates {
            days.insert(PostgresPartitions.day(of: point.time))
            time.append(point.time.description)
            source.append(point.source)
            base.append(point.base)
            quote.append(point.quote)
            rate.append(try Self.text(point.rate))
        }
        rates = [time, source, base, quote, rate].map(PostgresArray.literal)
        counts.rates = tick.rates.count

        var symbol: [String?] = []
        var basis: [String?] = []
        var fxSource: [String?] = []
        var percent: [String?] = []
        (time, exchange) = ([], [])
        for point in tick.premiums {
            days.insert(PostgresPartitions.day(of: point.time))
            time.append(point.time.description)
            exchange.append(point.exchange)
            symbol.append(point.symbol)
            basis.append(point.basis)
            fxSource.append(point.fxSource)
            percent.append(try Self.text(point.percent))
        }
        premiums = [time, exchange, symbol, basis, fxSource, percent].map(PostgresArray.literal)
        counts.premiums = tick.premiums.count
    }

    /// A decimal as its exact plain text; NaN has no place in a price.
    private static func text(_ value: Decimal) throws(PostgresError) -> String {
        guard !value.isNaN else { throw PostgresError(.data, "a recorded value is not a number (NaN)") }
        return DecimalText.format(value)
    }

    /// The guard every insert carries: the point's venue is leased by nobody, or by `holder`
    /// (`$N`) with a lease still valid now, by the database's clock (`databaseClock`), or at the
    /// point's time (tests that play the clock).
    private static func leaseGuard(venue: String, holderParameter: Int, databaseClock: Bool) -> String {
        """
        WHERE NOT EXISTS (
            SELECT 1 FROM venue_lease l
            WHERE l.venue = \(venue) AND (l.holder IS DISTINCT FROM $\(holderParameter)::text
                OR l.expiry <= \(databaseClock ? "now()" : "p.time")))
        ON CONFLICT DO NOTHING
        """
    }

    /// Inserts the points in one transaction, as `holder` (see `PostgresHistoryStore.record`),
    /// and answers how many rows of each table were written: the points the lease guard or a
    /// primary key refused are not counted.
    @discardableResult
    func insert(holder: String?, databaseClock: Bool, _ connection: PostgresConnection) throws(PostgresError)
        -> RecordedRows
    {
        try connection.transaction { () throws(PostgresError) -> RecordedRows in
            var written = RecordedRows(prices: 0, rates: 0, premiums: 0)
            if counts.prices > 0 {
                written.prices =
                    try connection.query(
                        """
                        INSERT INTO price (time, exchange, base, quote, last, base_volume, venue_time, received_at)
                        SELECT p.time, p.exchange, p.base, p.quote, p.last, p.base_volume, p.venue_time, p.received_at
                        FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[],
                            $7::timestamptz[], $8::timestamptz[])
                            AS p (time, exchange, base, quote, last, base_volume, venue_time, received_at)
                        \(Self.leaseGuard(venue: "p.exchange", holderParameter: 9, databaseClock: databaseClock))
                        """, prices + [holder]
                    ).changed
            }
            if counts.rates > 0 {
                written.rates =
                    try connection.query(
                        """
                        INSERT INTO rate (time, source, base, quote, rate)
                        SELECT p.time, p.source, p.base, p.quote, p.rate
                        FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::numeric[])
                            AS p (time, source, base, quote, rate)
                        \(Self.leaseGuard(venue: "p.source", holderParameter: 6, databaseClock: databaseClock))
                        """, rates + [holder]
                    ).changed
            }
            if counts.premiums > 0 {
                written.premiums =
                    try connection.query(
                        """
                        INSERT INTO premium (time, exchange, symbol, basis, fx_source, percent)
                        SELECT p.time, p.exchange, p.symbol, p.basis, p.fx_source, p.percent
                        FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::numeric[])
                            AS p (time, exchange, symbol, basis, fx_source, percent)
                        \(Self.leaseGuard(venue: "p.exchange", holderParameter: 7, databaseClock: databaseClock))
                        """, premiums + [holder]
                    ).changed
            }
            return written
        }
    }
}
