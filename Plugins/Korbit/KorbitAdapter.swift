import AggCore
import AggJSON

/// Korbit (Korea), Open API v2: tickers of several markets in one request or all at once, the
/// pair list, order book, recent trades, candles and transfer status, quoted in KRW.
///
/// `/v2/tickers` leaves a symbol it does not know out of its answer (HTTP 200 with the others),
/// so a missing ticker means the market is not listed; the other endpoints answer an unknown
/// symbol with HTTP 400 `INVALID_CURRENCY_PAIR`. Korbit allows 50 requests a second and says
/// what is left in a `Ratelimit` header; when nothing is, the next request waits for the window.
///
/// Korbit measures its change against its previous close (`prevClose`) and does not say when
/// that close is taken, so its quotes carry no change basis (`changeBasis` is `nil`).
public struct KorbitAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "korbit",
        displayName: "Korbit",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus],
        requestsPerSecond: 50,
        defaultBaseURL: "https://api.korbit.co.kr",
        limits: FetchLimits(
            candles: APIRouter.maximumCandles, trades: APIRouter.maximumTrades, bookDepth: APIRouter.bookDepth,
            candleIntervals: APIRouter.candleIntervals),
        notListedCodes: [KorbitDecoding.invalidPairCode],
        quotaHeader: .rateLimit
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: KorbitDecoding.envelope)
    }

    /// One `/v2/currencies` request for every coin and network.
    public func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus] {
        let wanted = Set(coins)
        return try await client.get(APIRouter.currencies) { data throws(JSONDecodingError) in
            try KorbitTransferDecoding.statuses(data).filter { wanted.isEmpty || wanted.contains($0.coin) }
        }
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        let quotes = try await client.get(APIRouter.tickers([market]), for: market) {
            data throws(JSONDecodingError) -> [Quote] in
            let answer = try KorbitDecoding.quotes(data)
            if !answer.values.contains(where: { $0.market == market }),
                let skipped = answer.skipped.first(where: { $0.market == market || $0.market == nil })
            {
                throw JSONDecodingError(path: skipped.path, reason: skipped.reason)
            }
            return answer.values
        }
        guard let quote = quotes.first(where: { $0.market == market }) else {
            throw .notListed(venue: Self.descriptor.id, market: market, code: "", message: "")
        }
        return quote
    }

    /// Several markets go in one `/v2/tickers?symbol=...` request, as many as fit in a URL of
    /// `URLBatches.maximumURLLength` bytes.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        let baseURL = client.baseURL
        return await QuoteBatch.answer(
            markets, client: client, batchURL: { APIRouter.tickers($0).url(baseURL: baseURL) },
            single: { market async throws(AggError) in try await self.quote(for: market) },
            batch: { _, markets async throws(AggError) in
                try await client.get(APIRouter.tickers(markets), decode: KorbitDecoding.quotes)
            })
    }

    /// Every pair's ticker, stopped pairs included (their best prices are 0).
    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// `allQuotes(quotedIn:)`, entry by entry: a ticker that does not decode costs only itself.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        try client.requireServed(Market(base: "ALL", quote: currency))
        let quotes = try await client.get(APIRouter.allTickers, decode: KorbitDecoding.quotes)
        return quotes.filter { $0.market.quote == currency }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The pair list, entry by entry: a pair that does not decode is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.currencyPairs, decode: KorbitDecoding.markets)
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "korbit does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let count = min(max(limit, 1), APIRouter.maximumCandles)
        let candles = try await client.get(APIRouter.candles(market, interval: interval, limit: count), for: market) {
            data throws(JSONDecodingError) in try KorbitDecoding.candles(data)
        }
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), APIRouter.maximumTrades)
        let trades = try await client.get(APIRouter.trades(market, limit: count), for: market) {
            data throws(JSONDecodingError) in try KorbitDecoding.trades(data)
        }
        return Array(trades.prefix(max(0, limit)))
    }

    /// Korbit always sends 30 levels a side; the book is cut to `depth` here.
    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        var book = try await client.get(APIRouter.orderBook(market), for: market) { data throws(JSONDecodingError) in
            try KorbitDecoding.orderBook(data, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}
