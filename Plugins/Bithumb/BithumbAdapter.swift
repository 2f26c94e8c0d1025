import AggCore
import AggJSON

/// Bithumb (Korea), public API: tickers one at a time or all at once, order book, trades,
/// candles and transfer status, quoted in KRW or BTC.
///
/// Bithumb has two public APIs: the classic `/public/*` one and the Upbit-shaped `/v1/*` one.
/// The adapter asks the one set in the config file (`venueSettings.bithumb.api`, classic by
/// default: see `BithumbAPI` for why) and falls back to the other when an endpoint is missing.
/// Transfer status exists only in the classic API.
public struct BithumbAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "bithumb",
        displayName: "Bithumb",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.paymentCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus],
        requestsPerSecond: 150,
        defaultBaseURL: "https://api.bithumb.com",
        limits: FetchLimits(candles: 1500, trades: 100, bookDepth: 30),
        changeBasis: .rolling24h,
        notListedCodes: [BithumbDecoding.notListedCode, BithumbV1.notListedCode],
        settings: [BithumbAPI.setting]
    )

    /// The classic API.
    private let client: VenueClient
    private let v1: BithumbV1
    private let preference: BithumbAPIPreference

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: BithumbDecoding.envelope)
        v1 = BithumbV1(environment: environment)
        preference = BithumbAPIPreference(BithumbAPI(rawValue: environment.value(of: BithumbAPI.setting)) ?? .classic)
    }

    /// The API asked first for `endpoint` (`ticker`, `allTickers/KRW`, `candles`, `trades`,
    /// `orderBook`): the configured one, or the other once it answered where the configured one
    /// had no endpoint.
    public func firstAPI(for endpoint: String) -> BithumbAPI {
        preference.first(for: endpoint)
    }

    /// The value of the API asked first for `endpoint`; when it has no such endpoint, the other
    /// API's, which is then asked first for that endpoint from now on. When neither has it, the
    /// first one's error.
    private func either<T>(
        _ endpoint: String, classic: () async throws(AggError) -> EndpointAnswer<T>,
        v1: () async throws(AggError) -> EndpointAnswer<T>
    ) async throws(AggError) -> T {
        let first = preference.first(for: endpoint)
        let answer = try await first == .classic ? classic() : v1()
        let missing: AggError
        switch answer {
        case .answered(let value): return value
        case .missing(let error): missing = error
        }
        switch try await first == .classic ? v1() : classic() {
        case .answered(let value):
            preference.prefer(first.other, for: endpoint)
            return value
        case .missing:
            throw missing
        }
    }

    /// One `/public/assetsstatus/multichain/ALL` request for every coin and network.
    public func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus] {
        let wanted = Set(coins)
        return try await client.get(APIRouter.assetsStatus) { data throws(JSONDecodingError) in
            try BithumbTransferDecoding.statuses(data: data).filter { wanted.isEmpty || wanted.contains($0.coin) }
        }
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await either(
            "ticker",
            classic: { () async throws(AggError) in
                try await client.getUnlessMissing(APIRouter.ticker(market), for: market) {
                    data throws(JSONDecodingError) in
                    guard let quote = try BithumbDecoding.quotes(data: data, shape: .single(market)).values.first else {
                        throw data.failure("no ticker in the answer")
                    }
                    return quote
                }
            }, v1: { () async throws(AggError) in try await v1.quote(market) })
    }

    /// One market uses the single-ticker endpoint; several markets of one payment currency share
    /// one ALL request.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        let unique = Array(Set(markets))
        if unique.count == 1, let market = unique.first {
            return [market: await .catching { () throws(AggError) in try await quote(for: market) }]
        }
        let byPayment = Array(Dictionary(grouping: unique, by: \.quote))
        let partials = await concurrentMap(byPayment) { payment, paymentMarkets in
            await self.batch(paymentMarkets, payment: payment)
        }
        return partials.reduce(into: [:]) { results, partial in results.merge(partial) { first, _ in first } }
    }

    /// The markets of one payment currency, answered from one ALL request; a market missing from
    /// the answer is not listed.
    private func batch(_ markets: [Market], payment: String) async -> [Market: QuoteResult] {
        let answer = await Result.catching { () throws(AggError) in try await allQuotesAnswer(quotedIn: payment) }
        let answered = (try? answer.get())?.results(for: markets, venue: Self.descriptor.id) ?? [:]
        var results: [Market: QuoteResult] = [:]
        for market in markets {
            if let error = client.unserved(market) {
                results[market] = .failure(error)
            } else if case .failure(let error) = answer {
                results[market] = .failure(error)
            } else {
                results[market] = answered[market]
            }
        }
        return results
    }

    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// The ALL tickers of `currency`, entry by entry: an entry that does not decode is skipped
    /// and reported, and costs no other coin.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        try client.requireServed(Market(base: "ALL", quote: currency))
        return try await either(
            "allTickers/\(currency)",
            classic: { () async throws(AggError) in
                try await client.getUnlessMissing(APIRouter.allTickers(payment: currency), for: nil) {
                    data throws(JSONDecodingError) in
                    try BithumbDecoding.quotes(data: data, shape: .all(payment: currency))
                }
            }, v1: { () async throws(AggError) in try await v1.allQuotes(quotedIn: currency) })
    }

    /// Bithumb's public API has no market list; the ALL tickers name every listed coin. Every
    /// listing is asked for, and the first failure, if any, is thrown: see `marketList` for the
    /// listings that answered.
    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// `markets()` with the entries skipped because they did not decode.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        let list = await marketList(quotedIn: nil)
        if let failure = list.failures.first { throw failure.error }
        return BulkAnswer(values: list.listings, skipped: list.skipped)
    }

    /// The ALL tickers of each payment currency asked for (both when `currency` is `nil`), at
    /// once; each listing keeps its ticker's last price. ALL_BTC has failed live since 2023
    /// (5500 with HTTP 200, sometimes a 404): that failure is reported beside the KRW listings
    /// instead of hiding them. An entry of an ALL answer that does not decode is skipped and
    /// reported in the list's `skipped`, and costs no other coin.
    public func marketList(quotedIn currency: String?) async -> MarketList {
        let payments = APIRouter.paymentCurrencies.filter { currency == nil || $0 == currency }
        let results = await concurrentResults(payments) { payment throws(AggError) in
            try await self.allQuotesAnswer(quotedIn: payment)
        }
        var list = MarketList(listings: [])
        for (payment, result) in zip(payments, results) {
            switch result {
            case .success(let answer):
                list.listings += answer.values.map { quote in
                    MarketListing(
                        exchange: Self.descriptor.id, market: quote.market, venueSymbol: APIRouter.pair(quote.market),
                        last: quote.last)
                }
                list.skipped += answer.skipped
            case .failure(let error):
                list.failures.append(MarketList.Failure(quoteCurrency: payment, error: error))
            }
        }
        return list
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        let candles = try await either(
            "candles",
            classic: { () async throws(AggError) in
                try await client.getUnlessMissing(APIRouter.candlestick(market, interval: interval), for: market) {
                    data throws(JSONDecodingError) in try BithumbDecoding.candles(data: data)
                }
            }, v1: { () async throws(AggError) in try await v1.candles(market, interval: interval, limit: limit) })
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), Self.descriptor.limits.trades)
        let trades = try await either(
            "trades",
            classic: { () async throws(AggError) in
                try await client.getUnlessMissing(APIRouter.transactionHistory(market, count: count), for: market) {
                    data throws(JSONDecodingError) in try BithumbDecoding.trades(data: data)
                }
            }, v1: { () async throws(AggError) in try await v1.trades(market, count: count) })
        return Array(trades.prefix(max(0, limit)))
    }

    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let count = min(max(depth, 1), Self.descriptor.limits.bookDepth)
        var book = try await either(
            "orderBook",
            classic: { () async throws(AggError) in
                try await client.getUnlessMissing(APIRouter.orderBook(market, count: count), for: market) {
                    data throws(JSONDecodingError) in try BithumbDecoding.orderBook(data: data, market: market)
                }
            }, v1: { () async throws(AggError) in try await v1.orderBook(market) })
        book.bids = Array(book.bids.prefix(depth))
        book.asks = Array(book.asks.prefix(depth))
        return book
    }
}
