import AggCore
import AggJSON

/// Kraken (United States), public REST API: tickers one pair at a time or all at once, the pair
/// list, order book, recent trades and candles, quoted mainly in USD.
///
/// Kraken answers a pair under its own name (`pair=XBTUSD` comes back as `XXBTZUSD`) and sends
/// no change: agg derives it from today's open (00:00 UTC), see `KrakenDecoding`. Errors come
/// with HTTP 200 in the `error` array; `EQuery:Unknown asset pair` means not listed. Several
/// markets share one all-tickers request: Kraken's public limit is about one request a second.
package struct KrakenAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "kraken", displayName: "Kraken", country: "US", homeCurrency: "USD",
        quoteCurrencies: KrakenPairs.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .stream],
        requestsPerSecond: 1,  // The public endpoints allow about one request a second from one address.
        defaultBaseURL: "https://api.kraken.com", limits: APIRouter.limits,
        changeBasis: .sinceUTCMidnight,
        notListedCodes: [KrakenDecoding.unknownPairError], rateLimitCodes: KrakenDecoding.rateLimitErrors,
        batching: .allTickersPerQuote,
        stream: Self.stream, fees: Self.fees
    )

    private let client: VenueClient

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: KrakenDecoding.envelope)
    }

    package var tickerStream: (any TickerStreamCodec)? { KrakenTickerStream() }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { result throws(JSONDecodingError) in
            try KrakenDecoding.quote(result, market: market)
        }
    }

    /// Every pair quoted in the request's currency, from the one answer that holds every pair in
    /// every quote, entry by entry: a ticker that does not decode costs only itself.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.allTickers) { result throws(JSONDecodingError) in
            try KrakenDecoding.quotes(result, quotedIn: request.currency)
        }
    }

    /// The pair list, entry by entry: a pair that does not decode is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.assetPairs, decode: KrakenDecoding.markets)
    }

    /// Kraken sends the last 720 bars whatever is asked.
    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.ohlc(request.market, interval: request.interval), for: request.market,
            decode: KrakenDecoding.candles)
    }

    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, count: request.count), for: request.market, decode: KrakenDecoding.trades)
    }

    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(
            APIRouter.depth(request.market, count: request.depth), for: request.market, decode: KrakenDecoding.orderBook
        )
    }
}
