import FoundationEssentials

/// One venue's ticker for one market, normalized. Every price and volume is an exact `Decimal`
/// parsed from the text the venue sent; fields a venue does not publish are `nil`.
public struct Quote: Sendable, Equatable {
    /// The adapter id, such as `bithumb`.
    public var exchange: String
    public var market: Market
    /// The last traded price.
    public var last: Decimal
    public var open: Decimal?
    public var high: Decimal?
    public var low: Decimal?
    public var previousClose: Decimal?
    /// The change over the venue's own window, in the quote currency.
    public var change: Decimal?
    /// The change as a percent (1.5 means 1.5 %).
    public var changePercent: Decimal?
    /// What `change` and `changePercent` are measured against; `nil` when the quote has no
    /// change, or its venue does not say.
    public var changeBasis: ChangeBasis?
    public var baseVolume: Decimal?
    public var quoteVolume: Decimal?
    /// When the venue produced the ticker.
    public var timestamp: Timestamp?
    /// When agg received the ticker: a stream message's arrival, or the arrival of the REST
    /// answer it came in (set once by the service that fetched it, from its clock); `nil` only
    /// for a quote not fetched by agg (a fixture decoded in a test).
    public var receivedAt: Timestamp?

    public init(
        exchange: String, market: Market, last: Decimal, open: Decimal? = nil, high: Decimal? = nil,
        low: Decimal? = nil, previousClose: Decimal? = nil, change: Decimal? = nil,
        changePercent: Decimal? = nil, changeBasis: ChangeBasis? = nil,
        baseVolume: Decimal? = nil, quoteVolume: Decimal? = nil, timestamp: Timestamp? = nil,
        receivedAt: Timestamp? = nil
    ) {
        self.exchange = exchange
        self.market = market
        self.last = last
        self.open = open
        self.high = high
        self.low = low
        self.previousClose = previousClose
        self.change = change
        self.changePercent = changePercent
        // A basis with no change to qualify would only say something about the venue.
        self.changeBasis = change == nil && changePercent == nil ? nil : changeBasis
        self.baseVolume = baseVolume
        self.quoteVolume = quoteVolume
        self.timestamp = timestamp
        self.receivedAt = receivedAt
    }
}
