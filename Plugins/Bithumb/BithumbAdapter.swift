import AggCore
import AggJSON

/// Bithumb (Korea), public API: tickers one at a time or all at once, order book, trades,
/// candles and transfer status, quoted in KRW or BTC.
///
/// Bithumb has two public APIs: the classic `/public/*` one and the Upbit-shaped `/v1/*` one.
/// The adapter asks the one set in the config file (`venueSettings.bithumb.api`, classic by
/// default: see `BithumbAPI` for why) and falls back to the other when an endpoint is missing.
/// Transfer status exists only in the classic API.
package struct BithumbAdapter: CompiledAdapter {
    package static let descriptor = AdapterDescriptor(
        id: "bithumb",
        displayName: "Bithumb",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.paymentCurrencies,
        capabilities: [
            .ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream, .events,
        ],
        requestsPerSecond: 150,
        defaultBaseURL: "https://api.bithumb.com",
        limits: FetchLimits(candles: 1500, trades: 100, bookDepth: 30),
        changeBasis: .rolling24h,
        notListedCodes: [BithumbDecoding.notListedCode, BithumbV1.notListedCode],
        settings: [BithumbAPI.setting],
        batching: .allTickersPerQuote,
        stream: Self.stream, fees: Self.fees, eventSources: BithumbEvents.sources
    )

    /// The classic API.
    private let client: VenueClient
    private let v1: BithumbV1
    private let preference: BithumbAPIPreference

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: BithumbDecoding.envelope)
        v1 = BithumbV1(environment: environment)
        preference = BithumbAPIPreference(BithumbAPI(rawValue: environment.value(of: BithumbAPI.setting)) ?? .classic)
    }

    package var tickerStream: (any TickerStreamCodec)? { Self.tickerCodec }

    /// The API asked first for `endpoint` (`ticker`, `allTickers/KRW`, `candles`, `trades`,
    /// `orderBook`): the configured one, or the other once it answered where the configured one
    /// had no endpoint.
    func firstAPI(for endpoint: String) -> BithumbAPI {
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

    /// One `/public/assetsstatus/multichain/ALL` request for every coin and network, and at the
    /// same time one `/v2/fee/inout/ALL` for their withdrawal fees; when the fees do not come,
    /// the statuses come without them.
    package func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        async let fees = v1.withdrawalFees()
        let rows = try await client.get(APIRouter.assetsStatus, decode: BithumbTransferDecoding.statuses(data:))
        return BithumbFeeDecoding.join(rows, fees: await fees)
    }

    /// `markets`, `warnings` and `notices`, one v1 request each (`BithumbEvents`).
    package func fetchEvents(_ source: EventSource, at time: Timestamp) async throws(AggError) -> EventObservation {
        let id = source.id
        switch id {
        case BithumbEvents.markets.id:
            return try await v1.client.get(V1Router.marketAllDetails) { json throws(JSONDecodingError) in
                try BithumbEvents.marketDecoder.observation(json, source: id, at: time)
            }
        case BithumbEvents.warnings.id:
            return try await v1.client.get(V1Router.virtualAssetWarning) { json throws(JSONDecodingError) in
                try BithumbEvents.warnings(json, source: id, at: time)
            }
        case BithumbEvents.notices.id:
            return try await v1.client.get(V1Router.notices(count: BithumbEvents.noticeCount)) {
                json throws(JSONDecodingError) in try BithumbEvents.notices(json, source: id, at: time)
            }
        default:
            throw .unsupported(venue: Self.descriptor.id, capability: .events)
        }
    }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await either(
            "ticker", classic: { () async throws(AggError) in try await classicQuote(market) },
            v1: { () async throws(AggError) in try await v1.quote(market) })
    }

    /// The ALL tickers of the request's currency, entry by entry: an entry that does not decode
    /// is skipped and reported, and costs no other coin.
    package func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        try await either(
            "allTickers/\(request.currency)",
            classic: { () async throws(AggError) in
                try await classic(APIRouter.allTickers(payment: request.currency), for: nil) {
                    data throws(JSONDecodingError) in
                    try BithumbDecoding.quotes(data: data, shape: .all(payment: request.currency))
                }
            }, v1: { () async throws(AggError) in try await v1.allQuotes(quotedIn: request.currency) })
    }

    /// Bithumb's public API has no market list; the ALL tickers name every listed coin. Every
    /// listing is asked for, and the first failure, if any, is thrown: see `marketList` for the
    /// listings that answered.
    package func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        let list = await marketList(quotedIn: nil)
        if let failure = list.failures.first { throw failure.error }
        return BulkAnswer(values: list.listings, skipped: list.skipped)
    }

    /// The ALL tickers of each payment currency asked for (both when `currency` is `nil`), at
    /// once; each listing keeps its ticker's last price. ALL_BTC has failed live since 2023
    /// (5500 with HTTP 200, sometimes a 404): that failure is reported beside the KRW listings
    /// instead of hiding them. An entry of an ALL answer that does not decode is skipped and
    /// reported in the list's `skipped`, and costs no other coin.
    package func marketList(quotedIn currency: String?) async -> MarketList {
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

    package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        try await either(
            "candles",
            classic: { () async throws(AggError) in
                try await classic(
                    APIRouter.candlestick(request.market, interval: request.interval), for: request.market
                ) {
                    data throws(JSONDecodingError) in try BithumbDecoding.candles(data: data)
                }
            }, v1: { () async throws(AggError) in try await v1.candles(request) })
    }

    package func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        try await either(
            "trades",
            classic: { () async throws(AggError) in
                try await classic(
                    APIRouter.transactionHistory(request.market, count: request.count), for: request.market
                ) {
                    data throws(JSONDecodingError) in try BithumbDecoding.trades(data: data)
                }
            }, v1: { () async throws(AggError) in try await v1.trades(request) })
    }

    package func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await either(
            "orderBook",
            classic: { () async throws(AggError) in
                try await classic(APIRouter.orderBook(request.market, count: request.depth), for: request.market) {
                    data throws(JSONDecodingError) in try BithumbDecoding.orderBook(data: data, market: request.market)
                }
            }, v1: { () async throws(AggError) in try await v1.orderBook(request.market) })
    }

    /// One market's ticker from the classic API.
    private func classicQuote(_ market: Market) async throws(AggError) -> EndpointAnswer<Quote> {
        try await classic(APIRouter.ticker(market), for: market) { data throws(JSONDecodingError) in
            guard let quote = try BithumbDecoding.quotes(data: data, shape: .single(market)).values.first else {
                throw data.failure("no ticker in the answer")
            }
            return quote
        }
    }

    /// `route`'s answer from the classic API, or `.missing` when it has no such endpoint.
    private func classic<T>(
        _ route: APIRouter, for market: Market?, decode: (JSONCursor) throws(JSONDecodingError) -> T
    ) async throws(AggError) -> EndpointAnswer<T> {
        try await client.getUnlessMissing(route, for: market, decode: decode)
    }
}
