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
public struct UpbitAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "upbit",
        displayName: "Upbit",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.upbit.com",
        limits: FetchLimits(candles: 200, trades: 500, bookDepth: 30, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .sinceUTCMidnight,
        notListedCodes: [UpbitDecoding.notFoundCode],
        quotaHeader: .remainingReq
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: UpbitDecoding.envelope)
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker([market]), for: market) { json throws(JSONDecodingError) in
            let answer = try UpbitDecoding.quotes(json)
            guard let quote = answer.values.first(where: { $0.market == market }) else {
                if let skipped = answer.skipped.first(where: { $0.market == market || $0.market == nil }) {
                    throw JSONDecodingError(path: skipped.path, reason: skipped.reason)
                }
                throw json.failure("no ticker for \(market) in the answer")
            }
            return quote
        }
    }

    /// One request for every market; see the type's documentation for unknown codes.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        var results: [Market: QuoteResult] = [:]
        var wanted: [Market] = []
        // A set, not `wanted.contains`: 10,000 markets would cost 50 M comparisons.
        var seen: Set<Market> = []
        for market in markets where seen.insert(market).inserted {
            if let error = client.unserved(market) {
                results[market] = .failure(error)
            } else {
                wanted.append(market)
            }
        }
        if wanted.count == 1, let market = wanted.first {
            results[market] = await quoteResult(market)
            return results
        }
        let baseURL = client.baseURL
        let batches = URLBatches.split(wanted) { APIRouter.ticker($0).url(baseURL: baseURL) }
        let answers = await concurrentMap(batches) { batch in await answer(batch) }
        for answered in answers { results.merge(answered) { first, _ in first } }
        return results
    }

    /// The markets of one URL batch: one request, retried with the listed markets after an
    /// unknown code; a failure fails the batch's markets with the one error.
    private func answer(_ markets: [Market]) async -> [Market: QuoteResult] {
        switch await batch(markets) {
        case .success(let answered):
            return answered
        case .failure(let error) where Self.descriptor.meansNotListed(error):
            return await retryListed(markets, after: error)
        case .failure(let error):
            return QuoteBatch.failing(markets, with: error)
        }
    }

    /// `quote(for:)`'s outcome as a value.
    private func quoteResult(_ market: Market) async -> QuoteResult {
        await .catching { () throws(AggError) in try await quote(for: market) }
    }

    /// One `/v1/ticker` request for `markets`; a market missing from the answer is not listed.
    private func batch(_ markets: [Market]) async -> Result<[Market: QuoteResult], AggError> {
        await .catching { () throws(AggError) in
            let answer = try await client.get(APIRouter.ticker(markets), decode: UpbitDecoding.quotes)
            return answer.results(for: markets, venue: Self.descriptor.id)
        }
    }

    /// After a batch failed on an unknown code: the market list tells which codes are unknown,
    /// and the rest are asked for again. Without the list, each market is asked for on its own.
    private func retryListed(_ markets: [Market], after error: AggError) async -> [Market: QuoteResult] {
        let listed: Set<Market>
        do throws(AggError) {
            listed = Set(try await self.markets().map(\.market))
        } catch {
            let answers = await concurrentMap(markets) { market in await quoteResult(market) }
            return Dictionary(zip(markets, answers)) { first, _ in first }
        }
        var results: [Market: QuoteResult] = [:]
        let remaining = markets.filter { listed.contains($0) }
        for market in markets where !listed.contains(market) {
            results[market] = .failure(client.notListed(error, market: market))
        }
        if remaining.count == 1, let market = remaining.first {
            results[market] = await quoteResult(market)
        } else if !remaining.isEmpty {
            switch await batch(remaining) {
            case .success(let answered): results.merge(answered) { first, _ in first }
            case .failure(let error): for market in remaining { results[market] = .failure(error) }
            }
        }
        return results
    }

    /// Upbit publishes no wallet status without an API key: every row says `unknown`, with the
    /// market warnings of `/v1/market/all?isDetails=true` as its note.
    public func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus] {
        let wanted = Set(coins)
        return try await client.get(APIRouter.marketAllDetails) { json throws(JSONDecodingError) in
            try UpbitTransferDecoding.statuses(json).filter { wanted.isEmpty || wanted.contains($0.coin) }
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The market list, entry by entry: an entry that does not decode is skipped and reported.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await client.get(APIRouter.marketAll, decode: UpbitDecoding.markets)
    }

    /// One `/v1/ticker/all` request for every market quoted in `currency`.
    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// One `/v1/ticker/all` request for every market quoted in `currency`, entry by entry.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        if let error = client.unserved(Market(base: "ALL", quote: currency)) { throw error }
        return try await client.get(APIRouter.allTickers(quote: currency)) { json throws(JSONDecodingError) in
            try UpbitDecoding.quotes(json).filter { $0.market.quote == currency }
        }
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        guard APIRouter.candleIntervals.contains(interval) else {
            throw .usage(
                "upbit does not offer \(interval.rawValue) candles; its intervals: "
                    + APIRouter.candleIntervals.map(\.rawValue).joined(separator: ", "))
        }
        let count = min(max(limit, 1), Self.descriptor.limits.candles)
        let candles = try await client.get(APIRouter.candles(market, interval: interval, count: count), for: market) {
            json throws(JSONDecodingError) in try UpbitShapeDecoder.candles(json)
        }
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), Self.descriptor.limits.trades)
        let trades = try await client.get(APIRouter.trades(market, count: count), for: market) {
            json throws(JSONDecodingError) in try UpbitShapeDecoder.trades(json)
        }
        return Array(trades.prefix(max(0, limit)))
    }

    /// Upbit sends up to 30 levels a side, as many as `count` asks for (an answer with more,
    /// such as the 15 it always sent before 2025 when fewer are wanted, is cut to `depth`).
    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let count = min(max(depth, 1), Self.descriptor.limits.bookDepth)
        var book = try await client.get(APIRouter.orderBook(market, count: count), for: market) {
            json throws(JSONDecodingError) in try UpbitDecoding.shape.orderBook(json, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}
