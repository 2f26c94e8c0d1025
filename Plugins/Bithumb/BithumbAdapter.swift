import AggCore
import AggJSON

/// Bithumb (Korea), public API: tickers one at a time or all at once, order book, trades and
/// candles, quoted in KRW or BTC.
public struct BithumbAdapter: ExchangeAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "bithumb",
        displayName: "Bithumb",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.paymentCurrencies,
        capabilities: [.ticker, .allTickers, .markets, .candles, .trades, .orderBook],
        requestsPerSecond: 150,
        defaultBaseURL: "https://api.bithumb.com",
        limits: FetchLimits(candles: 1500, trades: 100, bookDepth: 30),
        changeBasis: .rolling24h
    )

    private let baseURL: String
    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        baseURL = environment.baseURL
        client = VenueClient(venue: Self.descriptor.id, http: environment.http)
    }

    /// The `data` of a successful answer from `route`.
    private func data(_ route: APIRouter) async throws(AggError) -> JSONCursor {
        let (json, _) = try await client.getJSON(route.url(baseURL: baseURL)) { json, _ in
            BithumbDecoding.venueError(in: json)
        }
        guard json["status"].isPresent else {
            throw .decoding(
                venue: Self.descriptor.id, path: "$.status", detail: "expected the status envelope")
        }
        return json["data"]
    }

    /// The `data` of `route`'s answer about one market. Bithumb answers 5500 when it does not
    /// list the coin (on the ticker, order book, trades and candles alike): that is reported as
    /// the market not being listed, keeping the code and message.
    private func data(_ route: APIRouter, for market: Market) async throws(AggError) -> JSONCursor {
        do throws(AggError) {
            return try await data(route)
        } catch {
            throw Self.isNotListed(error) ? error.notListed(market) : error
        }
    }

    private func decode<T>(_ body: () throws(JSONDecodingError) -> T) throws(AggError) -> T {
        do throws(JSONDecodingError) {
            return try body()
        } catch {
            throw .decoding(error, venue: Self.descriptor.id)
        }
    }

    private static func notListed(_ market: Market) -> AggError {
        .notListed(
            venue: descriptor.id, market: market, code: "",
            message: "Bithumb quotes only in \(APIRouter.paymentCurrencies.joined(separator: ", "))")
    }

    private func requirePayment(_ market: Market) throws(AggError) {
        guard APIRouter.paymentCurrencies.contains(market.quote) else { throw Self.notListed(market) }
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try requirePayment(market)
        let data = try await data(.ticker(market), for: market)
        let quotes = try decode { () throws(JSONDecodingError) in
            try BithumbDecoding.quotes(data: data, shape: .single(market))
        }
        guard let quote = quotes.first else {
            throw .decoding(venue: Self.descriptor.id, path: "$.data", detail: "no ticker in the answer")
        }
        return quote
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

    /// The markets of one payment currency, answered from one ALL request.
    private func batch(_ markets: [Market], payment: String) async -> [Market: QuoteResult] {
        guard APIRouter.paymentCurrencies.contains(payment) else {
            return Dictionary(uniqueKeysWithValues: markets.map { ($0, .failure(Self.notListed($0))) })
        }
        let quotes: [Quote]
        do throws(AggError) {
            quotes = try await allQuotes(quotedIn: payment)
        } catch {
            return Dictionary(uniqueKeysWithValues: markets.map { ($0, .failure(error)) })
        }
        let byMarket = Dictionary(quotes.map { ($0.market, $0) }) { first, _ in first }
        return Dictionary(
            uniqueKeysWithValues: markets.map { market in
                (
                    market,
                    byMarket[market].map { .success($0) }
                        ?? .failure(
                            .notListed(venue: Self.descriptor.id, market: market, code: "", message: ""))
                )
            })
    }

    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try requirePayment(Market(base: "ALL", quote: currency))
        let data = try await data(.allTickers(payment: currency))
        return try decode { () throws(JSONDecodingError) in
            try BithumbDecoding.quotes(data: data, shape: .all(payment: currency))
        }
    }

    /// Bithumb's public API has no market list; the ALL tickers name every listed coin. Every
    /// listing is asked for, and the first failure, if any, is thrown: see `marketList` for the
    /// listings that answered.
    public func markets() async throws(AggError) -> [MarketListing] {
        let list = await marketList(quotedIn: nil)
        if let failure = list.failures.first { throw failure.error }
        return list.listings
    }

    /// The ALL tickers of each payment currency asked for (both when `currency` is `nil`), at
    /// once; each listing keeps its ticker's last price. ALL_BTC has failed live since 2023
    /// (5500 with HTTP 200, sometimes a 404): that failure is reported beside the KRW listings
    /// instead of hiding them.
    public func marketList(quotedIn currency: String?) async -> MarketList {
        let payments = APIRouter.paymentCurrencies.filter { currency == nil || $0 == currency }
        let results = await concurrentResults(payments) { payment throws(AggError) in
            try await self.allQuotes(quotedIn: payment)
        }
        var list = MarketList(listings: [])
        for (payment, result) in zip(payments, results) {
            switch result {
            case .success(let quotes):
                list.listings += quotes.map { quote in
                    MarketListing(
                        exchange: Self.descriptor.id, market: quote.market, venueSymbol: APIRouter.pair(quote.market),
                        last: quote.last)
                }
            case .failure(let error):
                list.failures.append(MarketList.Failure(quoteCurrency: payment, error: error))
            }
        }
        return list
    }

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        try requirePayment(market)
        let data = try await data(.candlestick(market, interval: interval), for: market)
        let candles = try decode { () throws(JSONDecodingError) in
            try BithumbDecoding.candles(data: data)
        }
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        try requirePayment(market)
        let data = try await data(.transactionHistory(market, count: min(max(limit, 1), 100)), for: market)
        let trades = try decode { () throws(JSONDecodingError) in try BithumbDecoding.trades(data: data)
        }
        return Array(trades.prefix(max(0, limit)))
    }

    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        try requirePayment(market)
        let data = try await data(.orderBook(market, count: min(max(depth, 1), 30)), for: market)
        var book = try decode { () throws(JSONDecodingError) in
            try BithumbDecoding.orderBook(data: data, market: market)
        }
        book.bids = Array(book.bids.prefix(depth))
        book.asks = Array(book.asks.prefix(depth))
        return book
    }
}

extension BithumbAdapter {
    /// Bithumb answers a request about one coin it does not list with status 5500. (On an ALL
    /// request, 5500 means the payment currency is not served; that is never asked here.)
    public static func isNotListed(_ error: AggError) -> Bool {
        switch error {
        case .notListed: true
        case .venue(_, let code, _): code == "5500"
        default: false
        }
    }
}
