import AggCore
import AggJSON

/// Coinbase Exchange (United States), public market data: a product's ticker and 24-hour
/// stats, fetched concurrently and merged into one quote, mainly in USD; the product list,
/// candles, recent trades and the order book.
package struct CoinbaseAdapter: CompiledAdapter {
    /// Coinbase returns at most 300 bars and 1000 trades a request; its level-2 book is the whole
    /// book, of which agg keeps up to 1000 levels a side.
    package static let descriptor = AdapterDescriptor(
        id: "coinbase",
        displayName: "Coinbase Exchange",
        country: "US",
        homeCurrency: "USD",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .markets, .candles, .trades, .orderBook, .stream],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.exchange.coinbase.com",
        limits: FetchLimits(candles: 300, trades: 1000, bookDepth: 1000, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .rolling24h,
        notListedCodes: [CoinbaseDecoding.notFoundCode],
        stream: Self.stream, fees: Self.fees
    )

    private let client: VenueClient
    private let notes: AdapterNotes

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: CoinbaseDecoding.envelope)
        notes = environment.notes
    }

    package var tickerStream: (any TickerStreamCodec)? { CoinbaseTickerStream() }

    /// Ticker and stats are independent requests, sent at once: one round trip, not two.
    ///
    /// The ticker is the quote; the stats only add the 24-hour open, high, low and volume (and
    /// so the change). When the ticker answered and the stats did not, the quote answers with
    /// those fields empty, and the stats failure is said once as a note (`AGG_DEBUG`).
    package func quote(for market: Market) async throws(AggError) -> Quote {
        try client.requireServed(market)
        async let tickerAnswer = Result.catching { () throws(AggError) in try await json(.ticker(market), for: market) }
        async let statsAnswer = Result.catching { () throws(AggError) in try await json(.stats(market), for: market) }
        let ticker = try await tickerAnswer.get()
        let stats: JSONCursor
        switch await statsAnswer {
        case .success(let answer): stats = answer
        case .failure(let error):
            notes.say(
                "coinbase \(market): 24-hour stats failed (\(error.summary)); "
                    + "the quote has no open, high, low, volume or change")
            stats = Self.noStats
        }
        return try client.decode { () throws(JSONDecodingError) in
            try CoinbaseDecoding.quote(market: market, ticker: ticker, stats: stats)
        }
    }

    /// The product list, entry by entry: a product that does not decode is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.products, decode: CoinbaseDecoding.markets)
    }

    /// Coinbase sends its latest 300 bars whatever is asked.
    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.candles(request.market, interval: request.interval), for: request.market,
            decode: CoinbaseDecoding.candles)
    }

    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, limit: request.count), for: request.market, decode: CoinbaseDecoding.trades
        )
    }

    /// Coinbase's level-2 book is the whole book.
    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(APIRouter.book(request.market), for: request.market, decode: CoinbaseDecoding.orderBook)
    }

    /// Stats that did not come: an answer without any of their fields.
    private static let noStats = JSONCursor(.object(JSONObject()))

    /// `route`'s answer about `market`, undecoded.
    private func json(_ route: APIRouter, for market: Market) async throws(AggError) -> JSONCursor {
        try await client.get(route, for: market) { json throws(JSONDecodingError) in json }
    }
}
