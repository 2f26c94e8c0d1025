import AggCore
import AggJSON

/// Coinbase Exchange (United States), public market data: a product's ticker and 24-hour
/// stats, fetched concurrently and merged into one quote, mainly in USD; the product list,
/// candles, recent trades and the order book.
public struct CoinbaseAdapter: CompiledAdapter {
    /// Coinbase returns at most 300 bars and 1000 trades a request; its level-2 book is the whole
    /// book, of which agg keeps up to 1000 levels a side.
    public static let descriptor = AdapterDescriptor(
        id: "coinbase",
        displayName: "Coinbase Exchange",
        country: "US",
        homeCurrency: "USD",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .markets, .candles, .trades, .orderBook],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.exchange.coinbase.com",
        limits: FetchLimits(candles: 300, trades: 1000, bookDepth: 1000, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .rolling24h,
        notListedCodes: [CoinbaseDecoding.notFoundCode]
    )

    private let client: VenueClient
    private let notes: AdapterNotes

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: CoinbaseDecoding.envelope)
        notes = environment.notes
    }

    /// Ticker and stats are independent requests, sent at once: one round trip, not two.
    ///
    /// The ticker is the quote; the stats only add the 24-hour open, high, low and volume (and
    /// so the change). When the ticker answered and the stats did not, the quote answers with
    /// those fields empty, and the stats failure is said once as a note (`AGG_DEBUG`).
    public func quote(for market: Market) async throws(AggError) -> Quote {
        try client.requireServed(market)
        async let tickerAnswer = Result.catching { () throws(AggError) in try await json(.ticker(market), for: market) }
        async let statsAnswer = Result.catching { () throws(AggError) in try await json(.stats(market), for: market) }
        let ticker = try await tickerAnswer.get()
        let stats: JSONCursor
        switch await statsAnswer {
        case .success(let answer): stats = answer
        case .failure(let error):
            notes.say(
                "coinbase \(market): 24-hour stats failed (\(error.summary)); "
                    + "the quote has no open, high, low, volume or change")
            stats = Self.noStats
        }
        return try client.decode { () throws(JSONDecodingError) in
            try CoinbaseDecoding.quote(market: market, ticker: ticker, stats: stats)
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The product list, entry by entry: a product that does not decode is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.products, decode: CoinbaseDecoding.markets)
    }

    /// The latest bars: Coinbase sends its latest 300 whatever is asked; the newest `limit`
    /// are kept.
    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "coinbase does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let candles = try await client.get(
            APIRouter.candles(market, interval: interval), for: market, decode: CoinbaseDecoding.candles)
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), Self.descriptor.limits.trades)
        let trades = try await client.get(
            APIRouter.trades(market, limit: count), for: market, decode: CoinbaseDecoding.trades)
        return Array(trades.prefix(max(0, limit)))
    }

    /// Coinbase's level-2 book is the whole book; it is cut to `depth` here.
    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        var book = try await client.get(APIRouter.book(market), for: market) { json throws(JSONDecodingError) in
            try CoinbaseDecoding.orderBook(json, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }

    /// Stats that did not come: an answer without any of their fields.
    private static let noStats = JSONCursor(.object(JSONObject()))

    /// `route`'s answer about `market`, undecoded.
    private func json(_ route: APIRouter, for market: Market) async throws(AggError) -> JSONCursor {
        try await client.get(route, for: market) { json throws(JSONDecodingError) in json }
    }
}
