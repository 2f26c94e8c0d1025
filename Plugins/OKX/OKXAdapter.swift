import AggCore
import AggJSON

/// OKX (global), API v5 market data: spot tickers one at a time or all at once, the instrument
/// list, order book, recent trades and candles, quoted mainly in USDT.
///
/// Errors come with HTTP 200 and a `code` other than `"0"`; 51001 means the instrument does not
/// exist (not listed). Several markets share one all-tickers request (OKX allows 20 requests in
/// 2 seconds per address for these endpoints).
public struct OKXAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "okx",
        displayName: "OKX",
        country: "SC",
        homeCurrency: "USDT",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook],
        // 20 requests in 2 seconds per address.
        requestsPerSecond: 10,
        defaultBaseURL: "https://www.okx.com",
        limits: FetchLimits(
            candles: APIRouter.maximumCandles, trades: APIRouter.maximumTrades, bookDepth: APIRouter.maximumBookSize,
            candleIntervals: APIRouter.candleIntervals),
        changeBasis: .rolling24h,
        notListedCodes: [OKXDecoding.unknownInstrumentCode],
        rateLimitCodes: [OKXDecoding.rateLimitCode]
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: OKXDecoding.envelope)
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { data throws(JSONDecodingError) in
            let answer = try OKXDecoding.quotes(data)
            guard let quote = answer.values.first(where: { $0.market == market }) else {
                if let skipped = answer.skipped.first(where: { $0.market == market || $0.market == nil }) {
                    throw JSONDecodingError(path: skipped.path, reason: skipped.reason)
                }
                throw data.failure("no ticker for \(market) in the answer")
            }
            return quote
        }
    }

    /// One market uses the one-instrument ticker; several share one all-tickers request.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        await QuoteBatch.answer(
            markets, client: client,
            single: { market async throws(AggError) in try await self.quote(for: market) },
            batch: { quote, _ async throws(AggError) in try await self.allQuotesAnswer(quotedIn: quote) })
    }

    /// Every spot ticker quoted in `currency`, from the one answer that holds every spot
    /// instrument.
    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// `allQuotes(quotedIn:)`, entry by entry: a ticker that does not decode costs only itself.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        try client.requireServed(Market(base: "ALL", quote: currency))
        let quotes = try await client.get(APIRouter.spotTickers, decode: OKXDecoding.quotes)
        return quotes.filter { $0.market.quote == currency }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The spot instruments, entry by entry: one that does not decode is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.spotInstruments, decode: OKXDecoding.markets)
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "okx does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let count = min(max(limit, 1), APIRouter.maximumCandles)
        let candles = try await client.get(APIRouter.candles(market, interval: interval, limit: count), for: market) {
            data throws(JSONDecodingError) in try OKXDecoding.candles(data)
        }
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), APIRouter.maximumTrades)
        let trades = try await client.get(APIRouter.trades(market, limit: count), for: market) {
            data throws(JSONDecodingError) in try OKXDecoding.trades(data)
        }
        return Array(trades.prefix(max(0, limit)))
    }

    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let size = min(max(depth, 1), APIRouter.maximumBookSize)
        var book = try await client.get(APIRouter.books(market, size: size), for: market) {
            data throws(JSONDecodingError) in try OKXDecoding.orderBook(data, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}
