import AggCore
import AggJSON

/// OKX (global), API v5 market data: spot tickers one at a time or all at once, the instrument
/// list, order book, recent trades and candles, quoted mainly in USDT.
///
/// Errors come with HTTP 200 and a `code` other than `"0"`; 51001 means the instrument does not
/// exist (not listed). Several markets share one all-tickers request (OKX allows 20 requests in
/// 2 seconds per address for these endpoints).
package struct OKXAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "okx", displayName: "OKX", country: "SC", homeCurrency: "USDT",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .stream],
        requestsPerSecond: 10,  // 20 requests in 2 seconds per address.
        defaultBaseURL: "https://www.okx.com", limits: APIRouter.limits,
        changeBasis: .rolling24h,
        notListedCodes: [OKXDecoding.unknownInstrumentCode], rateLimitCodes: [OKXDecoding.rateLimitCode],
        batching: .allTickersPerQuote,
        stream: Self.stream, fees: Self.fees
    )

    private let client: VenueClient

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: OKXDecoding.envelope)
    }

    package var tickerStream: (any TickerStreamCodec)? { OKXTickerStream() }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { data throws(JSONDecodingError) in
            try OKXDecoding.quotes(data).only(market, in: data)
        }
    }

    /// Every spot ticker quoted in the request's currency, from the one answer that holds every
    /// spot instrument, entry by entry: a ticker that does not decode costs only itself.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.spotTickers, decode: OKXDecoding.quotes).quoted(in: request.currency)
    }

    /// The spot instruments, entry by entry: one that does not decode is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.spotInstruments, decode: OKXDecoding.markets)
    }

    /// At most 300 bars a request; OKX sends the newest first, the decoder turns them around.
    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.candles(request.market, interval: request.interval, limit: request.count), for: request.market,
            decode: OKXDecoding.candles)
    }

    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, limit: request.count), for: request.market, decode: OKXDecoding.trades)
    }

    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(
            APIRouter.books(request.market, size: request.depth), for: request.market, decode: OKXDecoding.orderBook)
    }
}
