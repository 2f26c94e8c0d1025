import AggCore
import AggJSON

/// Coinone (Korea), public API v2: tickers one at a time or all at once, the market list, order
/// book, recent trades, candles and transfer status, quoted in KRW.
///
/// Several markets share one all-tickers request (`/ticker_new/KRW`): one request instead of one
/// a market, against a limit of 300 requests a minute per address, past which Coinone blocks the
/// address (error 4). Errors come with HTTP 200 in the envelope; error 108 means the coin is not
/// listed.
package struct CoinoneAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "coinone", displayName: "Coinone", country: "KR", homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream],
        requestsPerSecond: 5,  // 300 requests a minute per address.
        defaultBaseURL: "https://api.coinone.co.kr", limits: APIRouter.limits,
        changeBasis: .rolling24h,
        notListedCodes: [CoinoneDecoding.unknownCurrencyCode], rateLimitCodes: [CoinoneDecoding.blockedCode],
        batching: .allTickersPerQuote,
        stream: Self.stream, fees: Self.fees
    )

    private let client: VenueClient

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: CoinoneDecoding.envelope)
    }

    package var tickerStream: (any TickerStreamCodec)? { CoinoneTickerStream() }

    /// One `/public/v2/currencies` request for every coin.
    package func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        try await client.get(APIRouter.currencies, decode: CoinoneTransferDecoding.statuses)
    }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { json throws(JSONDecodingError) in
            try CoinoneDecoding.quotes(json).only(market, in: json["tickers"])
        }
    }

    /// The request's tickers, entry by entry: a ticker that does not decode costs only itself.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.allTickers(quote: request.currency), decode: CoinoneDecoding.quotes)
    }

    /// The market list of each quote currency, entry by entry: a market that does not decode
    /// is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        var answer = BulkAnswer<MarketListing>(values: [])
        for quote in APIRouter.quoteCurrencies {
            let part = try await client.get(APIRouter.markets(quote: quote), decode: CoinoneDecoding.markets)
            answer.values += part.values
            answer.skipped += part.skipped
        }
        return answer
    }

    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.chart(request.market, interval: request.interval, size: request.count), for: request.market,
            decode: CoinoneDecoding.candles)
    }

    /// Coinone accepts only a few counts (10, 50, 100, 150, 200): the smallest that holds the
    /// request is asked for.
    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, size: request.size(from: APIRouter.tradeSizes)), for: request.market,
            decode: CoinoneDecoding.trades)
    }

    /// Coinone accepts only a few depths (5, 10, 15, 16): the smallest that holds the request is
    /// asked for.
    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(
            APIRouter.orderBook(request.market, size: request.size(from: APIRouter.bookSizes)), for: request.market,
            decode: CoinoneDecoding.orderBook)
    }
}
