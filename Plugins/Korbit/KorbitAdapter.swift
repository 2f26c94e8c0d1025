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
package struct KorbitAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "korbit", displayName: "Korbit", country: "KR", homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream],
        requestsPerSecond: 50,
        defaultBaseURL: "https://api.korbit.co.kr", limits: APIRouter.limits,
        notListedCodes: [KorbitDecoding.invalidPairCode],
        quotaHeader: .rateLimit,
        batching: .symbolList(max: nil),
        stream: Self.stream, fees: Self.fees
    )

    private let client: VenueClient

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: KorbitDecoding.envelope)
    }

    package var tickerStream: (any TickerStreamCodec)? { KorbitTickerStream() }

    /// One `/v2/currencies` request for every coin and network.
    package func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        try await client.get(APIRouter.currencies, decode: KorbitTransferDecoding.statuses)
    }

    /// `/v2/tickers` leaves a symbol it does not know out: a missing ticker is not listed.
    package func quote(for market: Market) async throws(AggError) -> Quote {
        let quote = try await client.get(APIRouter.tickers([market]), for: market) { data throws(JSONDecodingError) in
            try KorbitDecoding.quotes(data).quote(of: market)
        }
        guard let quote else { throw .notListed(venue: Self.descriptor.id, market: market, code: "", message: "") }
        return quote
    }

    /// Several markets go in one `/v2/tickers?symbol=...` request.
    package func fetchQuotes(_ markets: [Market]) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.tickers(markets), decode: KorbitDecoding.quotes)
    }

    package func quotesURL(for markets: [Market]) -> String {
        APIRouter.tickers(markets).url(baseURL: client.baseURL)
    }

    /// Every pair's ticker in the request's currency, stopped pairs included (their best prices
    /// are 0), entry by entry: a ticker that does not decode costs only itself.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.allTickers, decode: KorbitDecoding.quotes).quoted(in: request.currency)
    }

    /// The pair list, entry by entry: a pair that does not decode is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.currencyPairs, decode: KorbitDecoding.markets)
    }

    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.candles(request.market, interval: request.interval, limit: request.count), for: request.market,
            decode: KorbitDecoding.candles)
    }

    /// The taker's side is read from `isBuyerTaker`.
    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, limit: request.count), for: request.market, decode: KorbitDecoding.trades)
    }

    /// Korbit always sends 30 levels a side.
    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(APIRouter.orderBook(request.market), for: request.market, decode: KorbitDecoding.orderBook)
    }
}
