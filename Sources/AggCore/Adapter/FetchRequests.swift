// The checked requests an adapter's fetch primitives receive.
//
// Only the core makes them (`VenueAdapter`'s `candles(for:interval:limit:)` and the other entry
// points), after checking what the descriptor says: an adapter can rely on a candle interval it
// offers, a count between 1 and its limit, a quote currency it serves and a valid currency code,
// and never checks, clamps or trims them itself. What the caller asked for (`limit`, `depth`) is
// trimmed from the answer by the core as well.

/// Candles of one market: an interval the venue offers (`FetchLimits.candleIntervals`) and a
/// count of bars between 1 and `FetchLimits.candles`.
public struct CandleRequest: Sendable, Equatable {
    public let market: Market
    public let interval: CandleInterval
    /// How many bars to ask for: 1 to the venue's limit.
    public let count: Int

    init(market: Market, interval: CandleInterval, count: Int) {
        self.market = market
        self.interval = interval
        self.count = count
    }

    /// The same request for an API of the venue that offers only `intervals` and at most
    /// `maximum` bars (Bithumb's v1 API): its count cut to `maximum`.
    ///
    /// - Throws: `AggError.usage` naming `api` when `intervals` lacks the interval.
    public func within(_ intervals: [CandleInterval], maximum: Int, api: String) throws(AggError) -> CandleRequest {
        guard intervals.contains(interval) else { throw CandleRequest.unoffered(interval, by: api, offered: intervals) }
        return CandleRequest(market: market, interval: interval, count: min(count, maximum))
    }

    /// "upbit does not offer 6h candles; its intervals: 1m, 3m, ...".
    static func unoffered(_ interval: CandleInterval, by venue: String, offered: [CandleInterval]) -> AggError {
        .usage(
            "\(venue) does not offer \(interval.rawValue) candles; its intervals: "
                + offered.map(\.rawValue).joined(separator: ", "))
    }
}

/// The recent trades of one market: a count between 1 and `FetchLimits.trades`.
public struct TradeRequest: Sendable, Equatable {
    public let market: Market
    /// How many trades to ask for: 1 to the venue's limit.
    public let count: Int

    init(market: Market, count: Int) {
        self.market = market
        self.count = count
    }

    /// The smallest of `sizes` (ascending) that holds `count` rows, or the largest when none
    /// does: for a venue that takes only a few counts (Coinone's 10, 50, 100, 150, 200).
    public func size(from sizes: [Int]) -> Int {
        sizes.first { $0 >= count } ?? sizes.last ?? count
    }
}

/// The order book of one market: a depth a side between 1 and `FetchLimits.bookDepth`.
public struct BookRequest: Sendable, Equatable {
    public let market: Market
    /// How many levels a side to ask for: 1 to the venue's limit.
    public let depth: Int

    init(market: Market, depth: Int) {
        self.market = market
        self.depth = depth
    }

    /// The smallest of `sizes` (ascending) that holds `depth` levels, or the largest when none
    /// does: for a venue that takes only a few depths (Coinone's 5, 10, 15, 16).
    public func size(from sizes: [Int]) -> Int {
        sizes.first { $0 >= depth } ?? sizes.last ?? depth
    }
}

/// Every ticker of one quote currency the venue serves (`AdapterDescriptor.quoteCurrencies`).
public struct TickersRequest: Sendable, Equatable {
    /// A quote currency the venue serves.
    public let currency: String

    init(currency: String) {
        self.currency = currency
    }
}

/// Exchange rates from one base: a valid currency code (three letters A-Z), one the FX source
/// gives rates from (`AdapterDescriptor.rateBases`).
public struct RateRequest: Sendable, Equatable {
    /// The base currency, upper-case.
    public let base: String

    init(base: String) {
        self.base = base
    }
}
