import FoundationEssentials

/// A market a venue lists, with the names it publishes for the base asset.
public struct MarketListing: Sendable, Equatable {
    public var exchange: String
    public var market: Market
    /// The venue's own id for the market (`KRW-BTC`, `BTCUSDT`, `BTC_KRW`).
    public var venueSymbol: String
    public var koreanName: String?
    public var englishName: String?
    /// The last price, when the venue's market list comes from its tickers (Bithumb), so that
    /// nobody has to ask for the same tickers again.
    public var last: Decimal?

    public init(
        exchange: String, market: Market, venueSymbol: String, koreanName: String? = nil,
        englishName: String? = nil, last: Decimal? = nil
    ) {
        self.exchange = exchange
        self.market = market
        self.venueSymbol = venueSymbol
        self.koreanName = koreanName
        self.englishName = englishName
        self.last = last
    }
}

/// One OHLCV bar.
public struct Candle: Sendable, Equatable {
    /// The start of the bar.
    public var time: Timestamp
    public var open: Decimal
    public var high: Decimal
    public var low: Decimal
    public var close: Decimal
    public var volume: Decimal

    public init(
        time: Timestamp, open: Decimal, high: Decimal, low: Decimal, close: Decimal, volume: Decimal
    ) {
        self.time = time
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }
}

/// A bar length that venues share.
public enum CandleInterval: String, Sendable, CaseIterable {
    case oneMinute = "1m"
    case threeMinutes = "3m"
    case fiveMinutes = "5m"
    case tenMinutes = "10m"
    case thirtyMinutes = "30m"
    case oneHour = "1h"
    case sixHours = "6h"
    case twelveHours = "12h"
    case oneDay = "24h"
}

/// Which side of the book took liquidity.
public enum TradeSide: String, Sendable {
    case buy, sell
}

/// One public trade.
public struct Trade: Sendable, Equatable {
    public var time: Timestamp
    public var side: TradeSide
    public var price: Decimal
    public var amount: Decimal
    /// `price × amount` as the venue reported it, or computed when it sends none.
    public var cost: Decimal

    public init(time: Timestamp, side: TradeSide, price: Decimal, amount: Decimal, cost: Decimal) {
        self.time = time
        self.side = side
        self.price = price
        self.amount = amount
        self.cost = cost
    }
}

/// A price level of an order book.
public struct BookLevel: Sendable, Equatable {
    public var price: Decimal
    public var amount: Decimal

    public init(price: Decimal, amount: Decimal) {
        self.price = price
        self.amount = amount
    }
}

/// A snapshot of an order book: bids best (highest) first, asks best (lowest) first.
public struct OrderBook: Sendable, Equatable {
    public var exchange: String
    public var market: Market
    public var timestamp: Timestamp?
    public var bids: [BookLevel]
    public var asks: [BookLevel]

    public init(
        exchange: String, market: Market, timestamp: Timestamp?, bids: [BookLevel], asks: [BookLevel]
    ) {
        self.exchange = exchange
        self.market = market
        self.timestamp = timestamp
        self.bids = bids
        self.asks = asks
    }
}

/// A table of exchange rates from one base currency, as published at one moment.
public struct RateTable: Sendable, Equatable {
    /// The adapter id of the source.
    public var source: String
    public var base: String
    /// Units of each currency per one unit of `base`, by code.
    public var rates: [String: Decimal]
    /// When the provider last updated the table.
    public var asOf: Timestamp
    /// When the provider says the next update is due.
    public var nextUpdate: Timestamp?
    /// Rates the source sent that cannot be exchange rates (zero, negative, absurd), sorted by
    /// code; they are not in `rates`. A table with refusals is shown but never stored.
    public var refused: [RateRefusal]

    public init(
        source: String, base: String, rates: [String: Decimal], asOf: Timestamp, nextUpdate: Timestamp?,
        refused: [RateRefusal] = []
    ) {
        self.source = source
        self.base = base
        self.rates = rates
        self.asOf = asOf
        self.nextUpdate = nextUpdate
        self.refused = refused
    }
}
