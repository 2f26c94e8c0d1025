import AggCore
import AggJSON
import AggUpbitShape

/// Upbit (Korea), quotation API: tickers of several markets in one request, the market list
/// with Korean names, candles, recent trades and the order book, quoted in KRW, BTC or USDT.
///
/// Several markets go in one `/v1/ticker` request (as many as fit in a URL of
/// `URLBatches.maximumURLLength` bytes; more make several requests). Upbit fails the whole request when one code
/// is unknown (HTTP 404 "Code not found"), so on that answer the adapter reads the market list
/// once, reports the unlisted markets as not listed and asks again for the rest: one request
/// when every market is listed, three at most otherwise, however many markets were asked for.
/// (Pre-filtering with the list would cost a second request every time; splitting the batch
/// would cost one request per market against a limit of 10 a second.)
package struct UpbitAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "upbit",
        displayName: "Upbit",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [
            .ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream, .events,
        ],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.upbit.com",
        limits: FetchLimits(candles: 200, trades: 500, bookDepth: 30, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .sinceUTCMidnight,
        notListedCodes: [UpbitDecoding.notFoundCode],
        quotaHeader: .remainingReq,
        batching: .symbolList(max: nil),
        stream: Self.stream, fees: Self.fees, eventSources: [UpbitEvents.markets]
    )

    private let client: VenueClient

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: UpbitDecoding.envelope)
    }

    package var tickerStream: (any TickerStreamCodec)? { Self.tickerCodec }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker([market]), for: market) { json throws(JSONDecodingError) in
            try UpbitDecoding.quotes(json).only(market, in: json)
        }
    }

    /// One `/v1/ticker` request for several markets; see the type's documentation for unknown
    /// codes.
    package func fetchQuotes(_ markets: [Market]) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.ticker(markets), decode: UpbitDecoding.quotes)
    }

    package func quotesURL(for markets: [Market]) -> String {
        APIRouter.ticker(markets).url(baseURL: client.baseURL)
    }

    /// Upbit publishes no wallet status without an API key: every row says `unknown`, with the
    /// market warnings of `/v1/market/all?isDetails=true` as its note.
    package func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        try await client.get(APIRouter.marketAllDetails, decode: UpbitTransferDecoding.statuses)
    }

    /// `markets`: one `/v1/market/all?isDetails=true` request, its coins listed, warned and
    /// cautioned (`UpbitEvents`).
    package func fetchEvents(_ source: EventSource, at time: Timestamp) async throws(AggError) -> EventObservation {
        guard source.id == UpbitEvents.markets.id else {
            throw .unsupported(venue: Self.descriptor.id, capability: .events)
        }
        return try await client.get(APIRouter.marketAllDetails) { json throws(JSONDecodingError) in
            try UpbitEvents.decoder.observation(json, source: source.id, at: time)
        }
    }

    /// The market list, entry by entry: an entry that does not decode is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.marketAll, decode: UpbitDecoding.markets)
    }

    /// One `/v1/ticker/all` request for every market quoted in the request's currency, entry by
    /// entry.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        try await client.get(APIRouter.allTickers(quote: request.currency)) { json throws(JSONDecodingError) in
            try UpbitDecoding.quotes(json).filter { $0.market.quote == request.currency }
        }
    }

    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.candles(request.market, interval: request.interval, count: request.count), for: request.market,
            decode: UpbitShapeDecoder.candles)
    }

    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, count: request.count), for: request.market,
            decode: UpbitShapeDecoder.trades)
    }

    /// Upbit sends up to 30 levels a side, as many as the request asks for (an answer with more,
    /// such as the 15 it always sent before 2025, is cut by the core).
    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(
            APIRouter.orderBook(request.market, count: request.depth), for: request.market,
            decode: UpbitDecoding.shape.orderBook)
    }

    /// Upbit takes many markets in one order-book request (`markets=KRW-BTC,KRW-ETH`): the
    /// premium board at a notional asks its top coins' books in one request.
    package func fetchOrderBooks(_ markets: [Market], depth: Int) async throws(AggError) -> [OrderBook] {
        for market in markets { try client.requireServed(market) }
        return try await client.get(APIRouter.orderBooks(markets, count: depth)) { json throws(JSONDecodingError) in
            try UpbitDecoding.shape.orderBooks(json, markets: markets)
        }
    }

    package func orderBooksURL(for markets: [Market], depth: Int) -> String? {
        APIRouter.orderBooks(markets, count: depth).url(baseURL: client.baseURL)
    }
}
