import AggCore
import AggJSON

/// Binance (global), spot API: rolling 24-hour tickers (one symbol, or every symbol in one
/// request), the symbol list, candles, recent trades and the order book, quoted mainly in USDT.
/// From some countries Binance answers every request with HTTP 451; that is reported as a
/// restricted location, not as a failure of the venue.
public struct BinanceAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "binance",
        displayName: "Binance",
        country: "MT",
        homeCurrency: "USDT",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook],
        // The limit is request weight, 6000 a minute: about 50 ticker requests a second; 20 leaves
        // room for the heavier symbol list. The weight used this minute (all tickers weigh 80) is
        // read from every answer: near the limit, the bucket holds until the next minute.
        requestsPerSecond: 20,
        defaultBaseURL: "https://api.binance.com",
        limits: FetchLimits(candles: 1000, trades: 1000, bookDepth: 5000, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .rolling24h,
        notListedCodes: [BinanceDecoding.invalidSymbolCode],
        quotaHeader: .usedWeight
    )

    private let client: VenueClient
    private let allTickers = AllTickersMemo()

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: BinanceDecoding.envelope)
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker24h(market), for: market) { json throws(JSONDecodingError) in
            let quote = try BinanceDecoding.quote(json)
            guard quote.market == market else {
                throw json["symbol"].failure("asked for \(market), got \(quote.market)")
            }
            return quote
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The symbol list, entry by entry: a symbol that does not decode is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.exchangeInfo, decode: BinanceDecoding.markets)
    }

    /// Every ticker quoted in `currency`, from one all-tickers request (weight 80).
    ///
    /// The answer holds every quote currency, so it is kept for `AllTickersMemo.reuseSeconds`:
    /// asking this adapter for another currency right after (as `agg search` does) reads it
    /// again instead of spending another 80 of the minute's 6000.
    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// `allQuotes(quotedIn:)`, entry by entry: a ticker that does not decode is skipped and
    /// reported, and costs no other symbol.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        try client.requireServed(Market(base: "ALL", quote: currency))
        let json: JSONCursor
        if let kept = allTickers.recent() {
            json = kept
        } else {
            json = try await client.get(APIRouter.allTickers24h) { json throws(JSONDecodingError) in json }
            allTickers.keep(json)
        }
        return try client.decode { () throws(JSONDecodingError) in
            var answer = try BinanceDecoding.allQuotes(json, quotedIn: currency)
            answer.values.sort { $0.market < $1.market }
            return answer
        }
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "binance does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let count = min(max(limit, 1), Self.descriptor.limits.candles)
        let candles = try await client.get(
            APIRouter.klines(market, interval: interval, limit: count), for: market, decode: BinanceDecoding.candles)
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), Self.descriptor.limits.trades)
        let trades = try await client.get(
            APIRouter.trades(market, limit: count), for: market, decode: BinanceDecoding.trades)
        return Array(trades.prefix(max(0, limit)))
    }

    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let count = min(max(depth, 1), Self.descriptor.limits.bookDepth)
        var book = try await client.get(APIRouter.depth(market, limit: count), for: market) {
            json throws(JSONDecodingError) in try BinanceDecoding.orderBook(json, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}
