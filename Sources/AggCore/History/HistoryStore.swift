import FoundationEssentials

/// One venue's price for one market, as fetched at `time` by a recorder, with the quote's own
/// times (the venue's and agg's receive time) so that its age can be told.
public struct PricePoint: Sendable, Equatable {
    /// When the recorder fetched it (the tick's time, not the venue's own timestamp).
    public var time: Timestamp
    public var exchange: String
    public var market: Market
    public var last: Decimal
    /// 24-hour volume in the base currency, when the venue gives it.
    public var baseVolume: Decimal?
    /// The venue's own time of the quote (`Quote.timestamp`), when it sent one.
    public var venueTime: Timestamp?
    /// When agg received the quote (`Quote.receivedAt`: the REST answer or the stream frame);
    /// `nil` for rows recorded before agg kept it.
    public var receivedAt: Timestamp?

    public init(
        time: Timestamp, exchange: String, market: Market, last: Decimal, baseVolume: Decimal? = nil,
        venueTime: Timestamp? = nil, receivedAt: Timestamp? = nil
    ) {
        self.time = time
        self.exchange = exchange
        self.market = market
        self.last = last
        self.baseVolume = baseVolume
        self.venueTime = venueTime
        self.receivedAt = receivedAt
    }

    /// The point of `quote` recorded at `time`, keeping the quote's two times.
    public init(time: Timestamp, quote: Quote) {
        self.init(
            time: time, exchange: quote.exchange, market: quote.market, last: quote.last, baseVolume: quote.baseVolume,
            venueTime: quote.timestamp, receivedAt: quote.receivedAt)
    }

    /// How old the quote was when it was recorded: `time` less the venue's time, or less
    /// `receivedAt` when the venue sent no time (`QuoteAge`'s rule, measured at the tick); 0
    /// when the venue's clock ran ahead. `nil` for a row recorded before agg kept the times.
    public var age: QuoteAge? {
        if let venueTime {
            return QuoteAge(
                milliseconds: time.millisecondsSince1970 - venueTime.millisecondsSince1970, basis: .venueTime)
        }
        if let receivedAt {
            return QuoteAge(
                milliseconds: time.millisecondsSince1970 - receivedAt.millisecondsSince1970, basis: .receivedAt)
        }
        return nil
    }
}

/// One FX rate (`quote` per one `base`) from one source, as fetched at `time`.
public struct RatePoint: Sendable, Equatable {
    public var time: Timestamp
    /// The FX source's id (`exchangerate`, `frankfurter`, `dunamu`).
    public var source: String
    public var base: String
    public var quote: String
    public var rate: Decimal

    public init(time: Timestamp, source: String, base: String, quote: String, rate: Decimal) {
        self.time = time
        self.source = source
        self.base = base
        self.quote = quote
        self.rate = rate
    }
}

/// One venue's premium for one coin, as computed at `time` from the board of that tick.
public struct PremiumPoint: Sendable, Equatable {
    public var time: Timestamp
    public var exchange: String
    /// The coin (`BTC`).
    public var symbol: String
    /// What the premium is measured against: `usd` (the FX rate) or `usdt` (the venue's USDT price).
    public var basis: String
    /// The FX source the board converted with.
    public var fxSource: String
    /// The premium in percent (`2.51` for 2.51 %).
    public var percent: Decimal

    public init(time: Timestamp, exchange: String, symbol: String, basis: String, fxSource: String, percent: Decimal) {
        self.time = time
        self.exchange = exchange
        self.symbol = symbol
        self.basis = basis
        self.fxSource = fxSource
        self.percent = percent
    }
}

/// Everything one recorder tick fetched; a store writes it in one transaction.
public struct RecordedTick: Sendable, Equatable {
    public var time: Timestamp
    public var prices: [PricePoint]
    public var rates: [RatePoint]
    public var premiums: [PremiumPoint]

    public init(time: Timestamp, prices: [PricePoint] = [], rates: [RatePoint] = [], premiums: [PremiumPoint] = []) {
        self.time = time
        self.prices = prices
        self.rates = rates
        self.premiums = premiums
    }
}

/// The remembered state of one alert rule, keyed by the rule's text, so that a restarted
/// recorder does not fire again an alert whose condition already held.
public struct AlertState: Sendable, Equatable {
    /// The rule as the user wrote it, normalized (the key).
    public var rule: String
    /// Whether the condition held at the last evaluation (and has not yet reset).
    public var active: Bool
    /// When it last fired, for the cooldown.
    public var lastFired: Timestamp?

    public init(rule: String, active: Bool, lastFired: Timestamp?) {
        self.rule = rule
        self.active = active
        self.lastFired = lastFired
    }
}

/// Which points of a series to read.
public struct HistoryQuery: Sendable, Equatable {
    /// The coin (`BTC`).
    public var symbol: String
    /// Venue ids to include; empty means every venue.
    public var exchanges: [String]
    /// From this instant, inclusive.
    public var since: Timestamp
    /// Up to this instant, exclusive; `nil` means up to now.
    public var until: Timestamp?

    public init(symbol: String, exchanges: [String] = [], since: Timestamp, until: Timestamp? = nil) {
        self.symbol = symbol
        self.exchanges = exchanges
        self.since = since
        self.until = until
    }
}

/// Where `agg record` writes its ticks and where `agg history`, `agg serve` and the alerts read
/// them back: the embedded SQLite store by default, PostgreSQL for a team.
///
/// Every method is one transaction. Implementations must not block the cooperative pool for
/// long: a store that waits on a lock or the network does it off the pool.
/// The rows one `HistoryStore.recordCountingRows(_:)` call wrote, by table.
public struct RecordedRows: Sendable, Equatable {
    public var prices: Int
    public var rates: Int
    public var premiums: Int

    public init(prices: Int, rates: Int, premiums: Int) {
        self.prices = prices
        self.rates = rates
        self.premiums = premiums
    }

    /// Every point of `tick`: what a store that writes all it is given wrote.
    public init(every tick: RecordedTick) {
        self.init(prices: tick.prices.count, rates: tick.rates.count, premiums: tick.premiums.count)
    }

    public var total: Int { prices + rates + premiums }
}

/// The moment before which history goes, for a retention.
public enum RetentionCutoff {
    /// `now` less `retainingSeconds`; `nil` when that is before the earliest representable
    /// moment (nothing is that old).
    public static func before(_ now: Timestamp, retainingSeconds: Int64) -> Timestamp? {
        let (milliseconds, overflow) = retainingSeconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        let (cutoff, under) = now.millisecondsSince1970.subtractingReportingOverflow(milliseconds)
        return under ? nil : Timestamp(millisecondsSince1970: cutoff)
    }
}

extension HistoryStore {
    /// Prunes before `now` less `retainingSeconds`: right for a store without a clock of its own
    /// (the local SQLite file, read by one machine).
    public func prune(retainingSeconds: Int64, now: Timestamp, limit: Int) async throws(AggError) -> Int {
        guard let cutoff = RetentionCutoff.before(now, retainingSeconds: retainingSeconds) else { return 0 }
        return try await prune(before: cutoff, limit: limit)
    }

    /// Records `tick` and counts every point of it as written: right for a store that writes
    /// all it is given (no lease check).
    public func recordCountingRows(_ tick: RecordedTick) async throws(AggError) -> RecordedRows {
        try await record(tick)
        return RecordedRows(every: tick)
    }
}

public protocol HistoryStore: Sendable {
    /// Writes every point of `tick` in one transaction: all of them or none.
    func record(_ tick: RecordedTick) async throws(AggError)

    /// `record(_:)`, answering the rows the store actually wrote: a store that checks venue
    /// leases leaves out the points of venues the recording holder no longer holds, and a point
    /// already stored is not written again. Tick summaries count these, not the points given.
    func recordCountingRows(_ tick: RecordedTick) async throws(AggError) -> RecordedRows

    /// The recorded prices of `query.symbol`, oldest first, then by exchange.
    func prices(_ query: HistoryQuery) async throws(AggError) -> [PricePoint]

    /// The recorded premiums of `query.symbol`, oldest first, then by exchange and basis.
    func premiums(_ query: HistoryQuery) async throws(AggError) -> [PremiumPoint]

    /// Deletes at most `limit` of the oldest rows recorded before `cutoff` (prices, rates and
    /// premiums), in one short transaction, and returns how many went; a recorder calls it
    /// until it returns 0, so no write lock is held for long.
    func prune(before cutoff: Timestamp, limit: Int) async throws(AggError) -> Int

    /// `prune(before:limit:)` of the rows older than `retainingSeconds`, measured from the
    /// store's own clock where it has one (a shared database's `now()`), else from `now`.
    func prune(retainingSeconds: Int64, now: Timestamp, limit: Int) async throws(AggError) -> Int

    /// The stored state of every alert rule.
    func alertStates() async throws(AggError) -> [AlertState]

    /// Stores `states`, replacing those of the same rules, in one transaction.
    func saveAlertStates(_ states: [AlertState]) async throws(AggError)

    /// Claims, renews or keeps the venues `holder` may record until `expiry`, among `venues`,
    /// and returns those it holds now: a venue whose lease another live holder has is left to
    /// it; a lease that expired is taken over. Recorders record only the venues returned, so no
    /// venue is recorded twice.
    func claimVenues(_ venues: [String], holder: String, now: Timestamp, expiry: Timestamp) async throws(AggError)
        -> Set<String>

    /// Gives up every lease `holder` has, so that another recorder can take its venues at once
    /// instead of after their expiry; a recorder calls it when it stops cleanly.
    func releaseVenues(holder: String) async throws(AggError)
}
