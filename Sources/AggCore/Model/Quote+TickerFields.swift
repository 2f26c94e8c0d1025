import AggJSON
import Foundation

/// Where a venue's ticker object keeps each of agg's quote fields, for venues that send each as
/// one named value; `nil` for a field the venue does not send.
public struct TickerFields: Sendable {
    /// How a ticker says its change.
    public enum Change: Sendable {
        /// The change and its percent, under these names.
        case named(change: String, percent: String)
        /// None: the change is `last - open`, exact, with the percent rounded to
        /// `PriceChange.percentScale` decimals.
        case sinceOpen
    }

    public var last: String
    public var open: String?
    public var high: String?
    public var low: String?
    public var previousClose: String?
    public var change: Change
    public var baseVolume: String?
    public var quoteVolume: String?
    /// The ticker's time, read as a venue time (`optionalVenueTime`).
    public var time: String?

    /// The names of a venue's ticker fields.
    public init(
        last: String, open: String?, high: String?, low: String?, previousClose: String? = nil, change: Change,
        baseVolume: String?, quoteVolume: String?, time: String?
    ) {
        self.last = last
        self.open = open
        self.high = high
        self.low = low
        self.previousClose = previousClose
        self.change = change
        self.baseVolume = baseVolume
        self.quoteVolume = quoteVolume
        self.time = time
    }
}

extension Quote {
    /// `venue`'s quote of `market` read from `ticker` through its field names: prices checked as
    /// prices, volumes as amounts, the change basis `changeBasis` when given (a stream whose
    /// window differs from REST's), else the descriptor's. Fields are read in the order of
    /// `TickerFields`, so the first bad one is the one reported.
    public init(
        _ ticker: JSONCursor, fields: TickerFields, market: Market, venue: AdapterDescriptor,
        changeBasis: ChangeBasis? = nil
    ) throws(JSONDecodingError) {
        let last = try ticker.price(fields.last)
        let open = try Self.read(fields.open, ticker.optionalPrice)
        let high = try Self.read(fields.high, ticker.optionalPrice)
        let low = try Self.read(fields.low, ticker.optionalPrice)
        let previousClose = try Self.read(fields.previousClose, ticker.optionalPrice)
        let change: Decimal?
        let changePercent: Decimal?
        switch fields.change {
        case .named(let changeKey, let percentKey):
            change = try ticker.optionalDecimal(changeKey)
            changePercent = try ticker.optionalDecimal(percentKey)
        case .sinceOpen:
            let derived = PriceChange.from(open, to: last)
            change = derived?.change
            changePercent = derived?.percent
        }
        let baseVolume = try Self.read(fields.baseVolume, ticker.optionalAmount)
        let quoteVolume = try Self.read(fields.quoteVolume, ticker.optionalAmount)
        var timestamp: Timestamp?
        if let timeKey = fields.time { timestamp = try ticker[timeKey].optionalVenueTime() }
        self.init(
            exchange: venue.id, market: market, last: last, open: open, high: high, low: low,
            previousClose: previousClose, change: change, changePercent: changePercent,
            changeBasis: changeBasis ?? venue.changeBasis, baseVolume: baseVolume, quoteVolume: quoteVolume,
            timestamp: timestamp)
    }

    private static func read(
        _ key: String?, _ value: (String) throws(JSONDecodingError) -> Decimal?
    ) throws(JSONDecodingError) -> Decimal? {
        guard let key else { return nil }
        return try value(key)
    }
}

extension JSONCursor {
    /// The market named by the venue symbol in `key` (`"BTCUSDT"`, `"btc_krw"`), read through
    /// `market`; a symbol it does not name fails as `unknown symbol '…'`, quoting its first 40
    /// characters.
    public func market(symbol key: String, _ market: (String) -> Market?) throws(JSONDecodingError) -> Market {
        let field = self[key]
        let symbol = try field.string()
        guard let named = market(symbol) else { throw field.failure("unknown symbol '\(symbol.prefix(40))'") }
        return named
    }
}
