import AggCore
import AggJSON
import AggUpbitShape

/// Bithumb's v1 API: the Upbit-shaped endpoints, decoded by the shared `UpbitShapeDecoder`.
/// Each request says whether its endpoint was there (`EndpointAnswer`), for the adapter to ask
/// the classic API when it was not.
///
/// API notes (ccxt's recorded answers and Bithumb's v1 documentation):
/// - Answers are Upbit's: bare arrays, JSON numbers (`1.4E-7` included), `trade_price`,
///   `acc_trade_volume_24h`, `signed_change_rate` as a fraction.
/// - Errors come as `{"error":{"name":...,"message":...}}`, often with HTTP 200.
/// - There is no all-tickers endpoint: the market list is read, then the tickers of its markets
///   in one currency, `V1Router.maximumTickerMarkets` a request at most, in URLs of at most
///   `URLBatches.maximumURLLength` bytes.
/// - The documentation counts volumes from 00:00 KST and the previous close from 00:00 UTC, so
///   v1 quotes carry no change basis.
/// - The ticker's `timestamp` and `trade_timestamp` are Korean wall time written as epoch
///   milliseconds (9 hours ahead); its time is the last trade's, from `trade_date` and
///   `trade_time` (UTC, as documented), see `UpbitShapeTickerTime.lastTradeUTC`.
/// - Bars come 200 at most a request, without 6 h or 12 h bars; the book comes with no count.
/// - The wallet status needs an API key: transfer status stays on the classic API.
struct BithumbV1: Sendable {
    /// The code of an unknown market, composed after Upbit's `Code not found`.
    static let notListedCode = "404"

    static let decoder = UpbitShapeDecoder(
        exchange: BithumbAdapter.descriptor.id, markets: V1Router.markets, changeBasis: nil,
        tickerTime: .lastTradeUTC)

    let client: VenueClient

    init(environment: AdapterEnvironment) {
        client = VenueClient(BithumbAdapter.descriptor, environment: environment, envelope: UpbitShapeDecoder.envelope)
    }

    /// Every coin's withdrawal fees per network (`/v2/fee/inout/ALL`); none when the request or
    /// the answer fails (the transfer statuses then come without fees).
    func withdrawalFees() async -> [BithumbFeeDecoding.NetworkFee] {
        do {
            return try await client.get(V1Router.feeInOut, decode: BithumbFeeDecoding.fees)
        } catch {
            return []
        }
    }

    /// One market's ticker; a market missing from the answer is not listed.
    func quote(_ market: Market) async throws(AggError) -> EndpointAnswer<Quote> {
        let answer = try await client.getUnlessMissing(V1Router.ticker([market]), for: market) {
            json throws(JSONDecodingError) in try Self.decoder.quotes(json).quote(of: market)
        }
        switch answer {
        case .missing(let error): return .missing(error)
        case .answered(let quote?): return .answered(quote)
        case .answered(nil): throw .notListed(venue: client.venue, market: market, code: "", message: "")
        }
    }

    /// Every ticker quoted in `currency`: the market list, then the tickers of its markets in
    /// that currency.
    func allQuotes(quotedIn currency: String) async throws(AggError) -> EndpointAnswer<BulkAnswer<Quote>> {
        let answer = try await client.getUnlessMissing(V1Router.marketAll, for: nil) {
            json throws(JSONDecodingError) in try Self.decoder.listings(json)
        }
        guard case .answered(let listings) = answer else { return answer.map { _ in BulkAnswer(values: []) } }
        let markets = listings.values.map(\.market).filter { $0.quote == currency }
        // A damaged entry of the market list is a skipped entry of the tickers it would have had.
        var quotes = BulkAnswer<Quote>(
            values: [], skipped: listings.skipped.filter { $0.market == nil || $0.market?.quote == currency })
        let baseURL = client.baseURL
        let batches = URLBatches.split(markets, maximumCount: V1Router.maximumTickerMarkets) {
            V1Router.ticker($0).url(baseURL: baseURL)
        }
        for batch in batches {
            let part = try await client.get(V1Router.ticker(batch), decode: Self.decoder.quotes)
            quotes.values += part.values
            quotes.skipped += part.skipped
        }
        return .answered(quotes)
    }

    /// Up to 200 bars, oldest first; v1 has no 6 h or 12 h bars.
    func candles(_ request: CandleRequest) async throws(AggError) -> EndpointAnswer<[Candle]> {
        let request = try request.within(
            UpbitShapePath.candleIntervals, maximum: UpbitShapePath.maximumCandles, api: "bithumb's v1 API")
        return try await client.getUnlessMissing(
            V1Router.candles(request.market, interval: request.interval, count: request.count), for: request.market
        ) {
            json throws(JSONDecodingError) in try UpbitShapeDecoder.candles(json)
        }
    }

    /// Recent trades, newest first.
    func trades(_ request: TradeRequest) async throws(AggError) -> EndpointAnswer<[Trade]> {
        try await client.getUnlessMissing(V1Router.trades(request.market, count: request.count), for: request.market) {
            json throws(JSONDecodingError) in try UpbitShapeDecoder.trades(json)
        }
    }

    /// The book, as many levels as Bithumb sends.
    func orderBook(_ market: Market) async throws(AggError) -> EndpointAnswer<OrderBook> {
        try await client.getUnlessMissing(V1Router.orderBook(market), for: market) { json throws(JSONDecodingError) in
            try Self.decoder.orderBook(json, market: market)
        }
    }
}
