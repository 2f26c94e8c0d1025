import AggCore
import AggJSON

/// Kraken (United States), public REST API: tickers one pair at a time or all at once, the pair
/// list, order book, recent trades and candles, quoted mainly in USD.
///
/// Kraken answers a pair under its own name (`pair=XBTUSD` comes back as `XXBTZUSD`) and sends
/// no change: agg derives it from today's open (00:00 UTC), see `KrakenDecoding`. Errors come
/// with HTTP 200 in the `error` array; `EQuery:Unknown asset pair` means not listed. Several
/// markets share one all-tickers request: Kraken's public limit is about one request a second.
public struct KrakenAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "kraken",
        displayName: "Kraken",
        country: "US",
        homeCurrency: "USD",
        quoteCurrencies: KrakenPairs.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook],
        // The public endpoints allow about one request a second from one address.
        requestsPerSecond: 1,
        defaultBaseURL: "https://api.kraken.com",
        limits: FetchLimits(
            candles: APIRouter.maximumCandles, trades: APIRouter.maximumTrades, bookDepth: APIRouter.maximumDepth,
            candleIntervals: APIRouter.candleIntervals),
        changeBasis: .sinceUTCMidnight,
        notListedCodes: [KrakenDecoding.unknownPairError],
        rateLimitCodes: KrakenDecoding.rateLimitErrors
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: KrakenDecoding.envelope)
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { result throws(JSONDecodingError) in
            try KrakenDecoding.quote(result, market: market)
        }
    }

    /// One market uses the one-pair ticker; several share one all-tickers request.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        await QuoteBatch.answer(
            markets, client: client,
            single: { market async throws(AggError) in try await self.quote(for: market) },
            batch: { quote, _ async throws(AggError) in try await self.allQuotesAnswer(quotedIn: quote) })
    }

    /// Every pair quoted in `currency`, from the one answer that holds every pair in every quote.
    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// `allQuotes(quotedIn:)`, entry by entry: a ticker that does not decode costs only itself.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        try client.requireServed(Market(base: "ALL", quote: currency))
        return try await client.get(APIRouter.allTickers) { result throws(JSONDecodingError) in
            try KrakenDecoding.quotes(result, quotedIn: currency)
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The pair list, entry by entry: a pair that does not decode is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.assetPairs, decode: KrakenDecoding.markets)
    }

    /// Kraken sends the last 720 bars whatever is asked; the newest `limit` are kept.
    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "kraken does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let candles = try await client.get(APIRouter.ohlc(market, interval: interval), for: market) {
            result throws(JSONDecodingError) in try KrakenDecoding.candles(result, market: market)
        }
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), APIRouter.maximumTrades)
        let trades = try await client.get(APIRouter.trades(market, count: count), for: market) {
            result throws(JSONDecodingError) in try KrakenDecoding.trades(result, market: market)
        }
        return Array(trades.prefix(max(0, limit)))
    }

    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let count = min(max(depth, 1), APIRouter.maximumDepth)
        var book = try await client.get(APIRouter.depth(market, count: count), for: market) {
            result throws(JSONDecodingError) in try KrakenDecoding.orderBook(result, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}
