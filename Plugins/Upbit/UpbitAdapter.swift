import AggCore
import AggJSON
import Synchronization

/// Upbit (Korea), quotation API: tickers of several markets in one request, the market list
/// with Korean names, candles, recent trades and the order book, quoted in KRW, BTC or USDT.
///
/// Several markets go in one `/v1/ticker` request. Upbit fails the whole request when one code
/// is unknown (HTTP 404 "Code not found"), so on that answer the adapter reads the market list
/// once, reports the unlisted markets as not listed and asks again for the rest: one request
/// when every market is listed, three at most otherwise, however many markets were asked for.
/// (Pre-filtering with the list would cost a second request every time; splitting the batch
/// would cost one request per market against a limit of 10 a second.)
public struct UpbitAdapter: ExchangeAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "upbit",
        displayName: "Upbit",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .markets, .candles, .trades, .orderBook],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.upbit.com",
        limits: FetchLimits(candles: 200, trades: 500, bookDepth: 30, candleIntervals: APIRouter.candleIntervals),
        changeBasis: .sinceUTCMidnight
    )

    private let baseURL: String
    private let client: VenueClient
    private let rateLimit = RemainingRequestsRecord()

    public init(environment: AdapterEnvironment) {
        baseURL = environment.baseURL
        client = VenueClient(venue: Self.descriptor.id, http: environment.http)
    }

    /// The `Remaining-Req` header of the latest answer that carried one, for a rate limiter.
    public var remainingRequests: UpbitRemainingRequests? { rateLimit.latest }

    /// The parsed body of `route`'s answer, recording its `Remaining-Req` header (error answers
    /// count against the limit too).
    private func get(_ route: APIRouter) async throws(AggError) -> JSONCursor {
        try await client.getJSON(route.url(baseURL: baseURL)) { json, response in
            rateLimit.record(response)
            return UpbitDecoding.venueError(in: json, response: response)
        }.json
    }

    private static func quoteNotServed(_ market: Market) -> AggError {
        .notListed(
            venue: descriptor.id, market: market, code: "",
            message: "Upbit quotes only in \(APIRouter.quoteCurrencies.joined(separator: ", "))")
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        guard APIRouter.venueSymbol(for: market) != nil else { throw Self.quoteNotServed(market) }
        let json: JSONCursor
        do throws(AggError) {
            json = try await get(.ticker([market]))
        } catch {
            throw Self.isNotListed(error) ? error.notListed(market) : error
        }
        let quotes = try client.decode { () throws(JSONDecodingError) in try UpbitDecoding.quotes(json) }
        guard let quote = quotes.first(where: { $0.market == market }) else {
            throw .decoding(venue: Self.descriptor.id, path: "$", detail: "no ticker for \(market) in the answer")
        }
        return quote
    }

    /// One request for every market; see the type's documentation for unknown codes.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        var results: [Market: QuoteResult] = [:]
        var wanted: [Market] = []
        for market in markets where results[market] == nil && !wanted.contains(market) {
            if APIRouter.venueSymbol(for: market) == nil {
                results[market] = .failure(Self.quoteNotServed(market))
            } else {
                wanted.append(market)
            }
        }
        if wanted.count == 1, let market = wanted.first {
            results[market] = await quoteResult(market)
            return results
        }
        switch await batch(wanted) {
        case .success(let answered):
            results.merge(answered) { first, _ in first }
        case .failure(let error) where Self.isNotListed(error):
            results.merge(await retryListed(wanted, after: error)) { first, _ in first }
        case .failure(let error):
            for market in wanted { results[market] = .failure(error) }
        }
        return results
    }

    /// `quote(for:)`'s outcome as a value.
    private func quoteResult(_ market: Market) async -> QuoteResult {
        await .catching { () throws(AggError) in try await quote(for: market) }
    }

    /// One `/v1/ticker` request for `markets`; a market missing from the answer is not listed.
    private func batch(_ markets: [Market]) async -> Result<[Market: QuoteResult], AggError> {
        do throws(AggError) {
            let json = try await get(.ticker(markets))
            let quotes = try client.decode { () throws(JSONDecodingError) in try UpbitDecoding.quotes(json) }
            let byMarket = Dictionary(quotes.map { ($0.market, $0) }) { first, _ in first }
            return .success(
                Dictionary(
                    uniqueKeysWithValues: markets.map { market in
                        (
                            market,
                            byMarket[market].map { .success($0) }
                                ?? .failure(
                                    .notListed(venue: Self.descriptor.id, market: market, code: "", message: ""))
                        )
                    }))
        } catch {
            return .failure(error)
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
            results[market] = .failure(error.notListed(market))
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

    public func markets() async throws(AggError) -> [MarketListing] {
        let json = try await get(.marketAll)
        return try client.decode { () throws(JSONDecodingError) in try UpbitDecoding.markets(json) }
    }

    /// The answer to `route` for `market`, with Upbit's 404 "Code not found" reported as the
    /// market not being listed.
    private func get(_ route: APIRouter, for market: Market) async throws(AggError) -> JSONCursor {
        guard APIRouter.venueSymbol(for: market) != nil else { throw Self.quoteNotServed(market) }
        do throws(AggError) {
            return try await get(route)
        } catch {
            throw Self.isNotListed(error) ? error.notListed(market) : error
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
        let json = try await get(.candles(market, interval: interval, count: count), for: market)
        let candles = try client.decode { () throws(JSONDecodingError) in try UpbitDecoding.candles(json) }
        return Array(candles.suffix(max(0, limit)))
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let count = min(max(limit, 1), Self.descriptor.limits.trades)
        let json = try await get(.trades(market, count: count), for: market)
        let trades = try client.decode { () throws(JSONDecodingError) in try UpbitDecoding.trades(json) }
        return Array(trades.prefix(max(0, limit)))
    }

    /// Upbit sends up to 30 levels a side, as many as `count` asks for (an answer with more,
    /// such as the 15 it always sent before 2025 when fewer are wanted, is cut to `depth`).
    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let count = min(max(depth, 1), Self.descriptor.limits.bookDepth)
        let json = try await get(.orderBook(market, count: count), for: market)
        var book = try client.decode { () throws(JSONDecodingError) in
            try UpbitDecoding.orderBook(json, market: market)
        }
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }
}

extension UpbitAdapter {
    /// Upbit answers a ticker request for an unknown market code with HTTP 404, name 404.
    public static func isNotListed(_ error: AggError) -> Bool {
        switch error {
        case .notListed: true
        case .venue(_, let code, _): code == UpbitDecoding.notFoundCode
        default: false
        }
    }
}

/// The latest `Remaining-Req` seen by one adapter. Requests run concurrently, so it is guarded.
final class RemainingRequestsRecord: Sendable {
    private let value = Mutex<UpbitRemainingRequests?>(nil)

    func record(_ response: HTTPResponse) {
        guard let header = response.header("Remaining-Req"),
            let parsed = UpbitRemainingRequests(header: header)
        else { return }
        value.withLock { $0 = parsed }
    }

    var latest: UpbitRemainingRequests? { value.withLock { $0 } }
}

extension UpbitAdapter {
    /// Upbit counts requests per group and second and reports what is left in
    /// `Remaining-Req`; when nothing is left this second, the next request waits a second.
    public static func pauseAfter(_ response: HTTPResponse) -> Double? {
        guard let header = response.header("Remaining-Req"),
            let remaining = UpbitRemainingRequests(header: header)
        else { return nil }
        return remaining.perSecond == 0 ? 1 : nil
    }
}
