import AggCore
import AggJSON

/// Binance (global), spot API: rolling 24-hour tickers (one symbol, or every symbol in one
/// request), the symbol list, candles, recent trades and the order book, quoted mainly in USDT.
/// From some countries Binance answers every request with HTTP 451; that is reported as a
/// restricted location, not as a failure of the venue.
package struct BinanceAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "binance",
        displayName: "Binance",
        country: "MT",
        homeCurrency: "USDT",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .stream],
        // The limit is request weight, 6000 a minute: about 50 ticker requests a second; 20 leaves
        // room for the heavier symbol list. The weight used this minute (all tickers weigh 80) is
        // read from every answer: near the limit, the bucket holds until the next minute.
        requestsPerSecond: 20,
        defaultBaseURL: "https://api.binance.com",
        limits: FetchLimits(candles: 1000, trades: 1000, bookDepth: 5000, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .rolling24h,
        notListedCodes: [BinanceDecoding.invalidSymbolCode],
        quotaHeader: .usedWeight,
        stream: Self.stream, fees: Self.fees
    )

    private let client: VenueClient
    private let allTickers = AllTickersMemo()

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: BinanceDecoding.envelope)
    }

    package var tickerStream: (any TickerStreamCodec)? { BinanceTickerStream() }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker24h(market), for: market) { json throws(JSONDecodingError) in
            let quote = try BinanceDecoding.quote(json)
            guard quote.market == market else {
                throw json["symbol"].failure("asked for \(market), got \(quote.market)")
            }
            return quote
        }
    }

    /// The symbol list, entry by entry: a symbol that does not decode is skipped and reported.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.exchangeInfo, decode: BinanceDecoding.markets)
    }

    /// Every ticker quoted in the request's currency, from one all-tickers request (weight 80),
    /// entry by entry: a ticker that does not decode is skipped and reported, and costs no other
    /// symbol.
    ///
    /// The answer holds every quote currency, so it is kept for `AllTickersMemo.reuseSeconds`:
    /// asking this adapter for another currency right after (as `agg search` does) reads it
    /// again instead of spending another 80 of the minute's 6000.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        let json: JSONCursor
        if let kept = allTickers.recent() {
            json = kept
        } else {
            json = try await client.get(APIRouter.allTickers24h) { json throws(JSONDecodingError) in json }
            allTickers.keep(json)
        }
        return try client.decode { () throws(JSONDecodingError) in
            var answer = try BinanceDecoding.allQuotes(json, quotedIn: request.currency)
            answer.values.sort { $0.market < $1.market }
            return answer
        }
    }

    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await client.get(
            APIRouter.klines(request.market, interval: request.interval, limit: request.count), for: request.market,
            decode: BinanceDecoding.candles)
    }

    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await client.get(
            APIRouter.trades(request.market, limit: request.count), for: request.market, decode: BinanceDecoding.trades)
    }

    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await client.get(
            APIRouter.depth(request.market, limit: request.depth), for: request.market,
            decode: BinanceDecoding.orderBook)
    }
}
