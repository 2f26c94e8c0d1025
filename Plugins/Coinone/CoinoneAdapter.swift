import AggCore
import AggJSON

/// Coinone (Korea), public API v2: tickers one at a time or all at once, the market list, order
/// book, recent trades, candles and transfer status, quoted in KRW.
///
/// Several markets share one all-tickers request (`/ticker_new/KRW`): one request instead of one
/// a market, against a limit of 300 requests a minute per address, past which Coinone blocks the
/// address (error 4). Errors come with HTTP 200 in the envelope; error 108 means the coin is not
/// listed.
public struct CoinoneAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "coinone",
        displayName: "Coinone",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus],
        // 300 requests a minute per address.
        requestsPerSecond: 5,
        defaultBaseURL: "https://api.coinone.co.kr",
        limits: FetchLimits(
            candles: APIRouter.maximumChartSize, trades: APIRouter.tradeSizes.last ?? 200,
            bookDepth: APIRouter.bookSizes.last ?? 16, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .rolling24h,
        notListedCodes: [CoinoneDecoding.unknownCurrencyCode],
        rateLimitCodes: [CoinoneDecoding.blockedCode]
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: CoinoneDecoding.envelope)
    }

    /// One `/public/v2/currencies` request for every coin.
    public func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus] {
        let wanted = Set(coins)
        return try await client.get(APIRouter.currencies) { json throws(JSONDecodingError) in
            try CoinoneTransferDecoding.statuses(json).filter { wanted.isEmpty || wanted.contains($0.coin) }
        }
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { json throws(JSONDecodingError) in
            let answer = try CoinoneDecoding.quotes(json)
            guard let quote = answer.values.first(where: { $0.market == market }) else {
                if let skipped = answer.skipped.first(where: { $0.market == market || $0.market == nil }) {
                    throw JSONDecodingError(path: skipped.path, reason: skipped.reason)
                }
                throw json["tickers"].failure("no ticker for \(market) in the answer")
            }
            return quote
        }
    }

    /// One market uses the single-ticker endpoint; several share one all-tickers request.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        await QuoteBatch.answer(
            markets, client: client,
            single: { market async throws(AggError) in try await self.quote(for: market) },
            batch: { quote, _ async throws(AggError) in try await self.allQuotesAnswer(quotedIn: quote) })
    }

    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// `allQuotes(quotedIn:)`, entry by entry: a ticker that does not decode costs only itself.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        try client.requireServed(Market(base: "ALL", quote: currency))
        return try await client.get(APIRouter.allTickers(quote: currency), decode: CoinoneDecoding.quotes)
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The market list of each quote currency, entry by entry: a market that does not decode
    /// is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        var answer = BulkAnswer<MarketListing>(values: [])
        for quote in APIRouter.quoteCurrencies {
            let part = try await client.get(APIRouter.markets(quote: quote), decode: CoinoneDecoding.markets)
            answer.values += part.values
            answer.skipped += part.skipped
        }
        return answer
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "coinone does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let size = min(max(limit, 1), APIRouter.maximumChartSize)
        let candles = try await client.get(APIRouter.chart(market, interval: interval, size: size), for: market) {
            json throws(JSONDecodingError) in try CoinoneDecoding.candles(json)
        }
        return Array(candles.suffix(max(0, limit)))
    }

    /// Coinone accepts only a few counts (10, 50, 100, 150, 200): the smallest that holds
    /// `limit` is asked for, and the answer cut to `limit`.
    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let size = APIRouter.size(toHold: limit, from: APIRouter.tradeSizes)
        let trades = try await client.get(APIRouter.trades(market, size: size), for: market) {
            json throws(JSONDecodingError) in try CoinoneDecoding.trades(json)
        }
        return Array(trades.prefix(max(0, limit)))
    }

    /// Coinone accepts only a few depths (5, 10, 15, 16): the smallest that holds `depth` is
    /// asked for, and the book cut to `depth`.
    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let size = APIRouter.size(toHold: depth, from: APIRouter.bookSizes)
        var book = try await client.get(APIRouter.orderBook(market, size: size), for: market) {
            json throws(JSONDecodingError) in try CoinoneDecoding.orderBook(json, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}
