/// What an adapter is given when it is made: how to reach its venue.
public struct AdapterEnvironment: Sendable {
    /// The base URL to use: the descriptor's default or the `AGG_<ID>_URL` override.
    public var baseURL: String
    public var http: any HTTPClient
    /// The venue's settings from the config file (`AdapterDescriptor.settings`), by name; read
    /// them with `value(of:)`.
    public var settings: [String: String]
    /// Where an adapter says what it left out of an answer that still answers (Coinbase's
    /// 24-hour stats that did not come); `agg` prints these under `AGG_DEBUG`.
    public var notes: AdapterNotes
    /// The clock that bounds a venue's times (`ValueBounds`: no later than a day after now):
    /// the system's, unless the program or a test injects its own.
    public var now: @Sendable () -> Timestamp

    public init(
        baseURL: String, http: any HTTPClient, settings: [String: String] = [:], notes: AdapterNotes = .ignored,
        now: @escaping @Sendable () -> Timestamp = { ValueBounds.systemNow() }
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
        self.settings = settings
        self.notes = notes
        self.now = now
    }
}

/// A sink for an adapter's notes: one line each, about an answer that came with less than usual.
public struct AdapterNotes: Sendable {
    private let write: @Sendable (String) -> Void

    /// Notes handed to `write`.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Notes that go nowhere.
    public static let ignored = AdapterNotes { _ in }

    /// Says `note` (one line).
    public func say(_ note: String) {
        write(note)
    }
}

/// The result for one market of a batch request.
public typealias QuoteResult = Result<Quote, AggError>

/// A venue's public API behind the normalized model.
///
/// An adapter declares what it can do in its `descriptor` and implements the fetch primitives
/// for those capabilities, each on a request the core has already checked against the
/// descriptor (`CandleRequest`, `TradeRequest`, `BookRequest`, `TickersRequest`,
/// `RateRequest`): a typical primitive is one line, a route and a decoding function. Every
/// other primitive has a default that throws `AggError.unsupported`, so the protocol can grow
/// without breaking adapters.
///
/// Callers use the entry points of the extension below (`candles(for:interval:limit:)`,
/// `quotes(for:)`, ...), which do the capability mechanics once for every venue: validation,
/// clamping to the descriptor's limits, trimming to what was asked, time order, the filter of
/// transfer rows, and batch-to-per-market results as the descriptor's `batching` says.
///
/// The contract checker in `AggTestKit` (`AdapterContract`) holds every registered adapter to
/// this: declared capabilities answer, the others throw `unsupported`, the venue's not-found
/// answer is `notListed` for the market asked, and every error is one line naming the venue.
public protocol VenueAdapter: Sendable {
    /// Identity, capabilities and defaults, as data.
    var descriptor: AdapterDescriptor { get }

    /// The ticker of one market.
    func quote(for market: Market) async throws(AggError) -> Quote

    /// For `QuoteBatching.symbolList`: the tickers of `markets`, named in one request. A market
    /// the answer has no ticker for is not listed.
    func fetchQuotes(_ markets: [Market]) async throws(AggError) -> BulkAnswer<Quote>

    /// For `QuoteBatching.symbolList`: the URL of `fetchQuotes(markets)`'s request, so that the
    /// core cuts batches whose URLs fit `URLBatches.maximumURLLength`.
    func quotesURL(for markets: [Market]) -> String

    /// Every ticker quoted in the request's currency, with the entries of the venue's answer
    /// that were skipped because they did not decode (each costs only itself; see `BulkAnswer`).
    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote>

    /// Every market the venue lists, with the entries of its list that were skipped because
    /// they did not decode.
    func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing>

    /// The markets quoted in `currency` (every market when `nil`), as far as they could be had:
    /// a venue whose list takes several requests reports the ones that failed beside the
    /// listings of those that answered, instead of failing as a whole.
    func marketList(quotedIn currency: String?) async -> MarketList

    /// The most recent bars, `request.count` of them or all the venue sends (the core keeps the
    /// newest the caller asked for and puts them oldest first).
    func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle]

    /// The most recent public trades, `request.count` of them or all the venue sends (the core
    /// keeps the newest the caller asked for, newest first).
    func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade]

    /// The order book, `request.depth` levels a side or all the venue sends (the core cuts each
    /// side to the depth asked).
    func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook

    /// For a venue that documents several markets in one order-book request (Upbit's
    /// `/v1/orderbook?markets=KRW-BTC,KRW-ETH`): the books of `markets`, `depth` levels a side,
    /// in one request. A market the answer has no book for is left out. Venues without one keep
    /// the default, which throws `unsupported`.
    func fetchOrderBooks(_ markets: [Market], depth: Int) async throws(AggError) -> [OrderBook]

    /// The URL of `fetchOrderBooks(markets, depth:)`'s request, so that the core cuts batches
    /// whose URLs fit `URLBatches.maximumURLLength`; `nil` (the default) for a venue without a
    /// bulk book request, whose books are asked one market a request.
    func orderBooksURL(for markets: [Market], depth: Int) -> String?

    /// Exchange rates from the request's base (FX venues).
    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable

    /// Whether coins can be deposited and withdrawn, one row per coin and network, from the
    /// venue's public list (one request): every coin it lists (the core keeps those asked for).
    func fetchTransferStatus() async throws(AggError) -> [TransferStatus]

    /// The venue's ticker stream, when the descriptor declares `.stream` (its
    /// `StreamDescriptor` says where and under which quotas); `nil` otherwise.
    var tickerStream: (any TickerStreamCodec)? { get }

    /// For `.events`: everything the event source `source` (one of the descriptor's
    /// `eventSources` whose reader is `.adapter`) shows at `time`, from one request: the whole
    /// set of its facts, with the entries skipped because they did not decode.
    func fetchEvents(_ source: EventSource, at time: Timestamp) async throws(AggError) -> EventObservation
}

/// An adapter written in Swift, whose descriptor is known at compile time:
/// `AdapterRegistration(BithumbAdapter.self)` registers it.
public protocol CompiledAdapter: VenueAdapter {
    /// Identity, capabilities and defaults, as data.
    static var descriptor: AdapterDescriptor { get }

    init(environment: AdapterEnvironment)
}

extension CompiledAdapter {
    public var descriptor: AdapterDescriptor { Self.descriptor }
}

// The primitives a venue does not offer: each says so.
extension VenueAdapter {
    public var tickerStream: (any TickerStreamCodec)? { nil }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        throw .unsupported(venue: descriptor.id, capability: .ticker)
    }

    public func fetchQuotes(_ markets: [Market]) async throws(AggError) -> BulkAnswer<Quote> {
        throw .unsupported(venue: descriptor.id, capability: .ticker)
    }

    /// No URL: the batches are bounded by `QuoteBatching.symbolList`'s count only.
    public func quotesURL(for markets: [Market]) -> String { "" }

    public func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        throw .unsupported(venue: descriptor.id, capability: .allTickers)
    }

    public func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        throw .unsupported(venue: descriptor.id, capability: .markets)
    }

    /// `marketsAnswer()` filtered to `currency`, with its skipped entries; its failure is the
    /// failure of the whole list.
    public func marketList(quotedIn currency: String?) async -> MarketList {
        let answer: BulkAnswer<MarketListing>
        do throws(AggError) {
            answer = try await marketsAnswer()
        } catch {
            return MarketList(listings: [], failures: [MarketList.Failure(quoteCurrency: nil, error: error)])
        }
        return MarketList(
            listings: answer.values.filter { currency == nil || $0.market.quote == currency },
            skipped: answer.skipped.filter { currency == nil || $0.market == nil || $0.market?.quote == currency })
    }

    public func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        throw .unsupported(venue: descriptor.id, capability: .candles)
    }

    public func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        throw .unsupported(venue: descriptor.id, capability: .trades)
    }

    public func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        throw .unsupported(venue: descriptor.id, capability: .orderBook)
    }

    public func fetchOrderBooks(_ markets: [Market], depth: Int) async throws(AggError) -> [OrderBook] {
        throw .unsupported(venue: descriptor.id, capability: .orderBook)
    }

    /// No bulk book request.
    public func orderBooksURL(for markets: [Market], depth: Int) -> String? { nil }

    public func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        throw .unsupported(venue: descriptor.id, capability: .fxRates)
    }

    public func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        throw .unsupported(venue: descriptor.id, capability: .transferStatus)
    }

    public func fetchEvents(_ source: EventSource, at time: Timestamp) async throws(AggError) -> EventObservation {
        throw .unsupported(venue: descriptor.id, capability: .events)
    }
}

// The entry points: what callers use, the capability mechanics done once for every venue.
extension VenueAdapter {
    /// Tickers of several markets, in as few requests as the descriptor's `batching` allows.
    /// Each market gets its own result, so that one unlisted market does not hide the others.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        await QuoteBatch.answer(markets, adapter: self)
    }

    /// Every ticker quoted in `currency`, in one request, with the entries skipped because they
    /// did not decode. On a venue with all tickers, a quote currency it does not serve is not
    /// listed, without a request (`ALL/USDT is not listed ...`).
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        if descriptor.supports(.allTickers), let error = descriptor.unserved(quoteCurrency: currency) { throw error }
        return try await fetchAllQuotes(TickersRequest(currency: currency))
    }

    /// Every ticker quoted in `currency`, in one request.
    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        try await allQuotesAnswer(quotedIn: currency).values
    }

    /// Every market the venue lists, with the entries of its list that were skipped.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        try await fetchMarkets()
    }

    /// Every market the venue lists.
    public func markets() async throws(AggError) -> [MarketListing] {
        try await marketsAnswer().values
    }

    /// The `limit` most recent bars (none when `limit` is not positive), oldest first.
    ///
    /// - Throws: `AggError.usage` for an interval the venue does not offer, before any request.
    public func candles(for market: Market, interval: CandleInterval, limit: Int) async throws(AggError)
        -> [Candle]
    {
        let limits = descriptor.limits
        guard limits.candleIntervals.contains(interval) else {
            throw CandleRequest.unoffered(interval, by: descriptor.id, offered: limits.candleIntervals)
        }
        let request = CandleRequest(market: market, interval: interval, count: Self.clamped(limit, to: limits.candles))
        let candles = try await fetchCandles(request)
        return Array(TimeOrder.ensured(candles, time: \.time, newestFirst: false).suffix(max(0, limit)))
    }

    /// The `limit` most recent public trades (none when `limit` is not positive), newest first.
    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        let request = TradeRequest(market: market, count: Self.clamped(limit, to: descriptor.limits.trades))
        let trades = try await fetchTrades(request)
        return Array(TimeOrder.ensured(trades, time: \.time, newestFirst: true).prefix(max(0, limit)))
    }

    /// The order book to `depth` levels a side (none when `depth` is not positive).
    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        let request = BookRequest(market: market, depth: Self.clamped(depth, to: descriptor.limits.bookDepth))
        var book = try await fetchOrderBook(request)
        book.bids = Array(book.bids.prefix(max(0, depth)))
        book.asks = Array(book.asks.prefix(max(0, depth)))
        return book
    }

    /// The order books of `markets` to `depth` levels a side, each market with its own result:
    /// in as few requests as the venue's bulk book request allows (`orderBooksURL`, batches cut
    /// by URL length), else one request a market, all at once (the venue's token bucket spaces
    /// them). A market a bulk answer leaves out is not listed; a failed bulk request is the
    /// failure of each of its markets.
    public func orderBooks(for markets: [Market], depth: Int) async -> [Market: Result<OrderBook, AggError>] {
        let markets = markets.reduce(into: [Market]()) { if !$0.contains($1) { $0.append($1) } }
        let asked = Self.clamped(depth, to: descriptor.limits.bookDepth)
        guard markets.count > 1, orderBooksURL(for: markets, depth: asked) != nil else {
            let results = await concurrentResults(markets) { market throws(AggError) in
                try await orderBook(for: market, depth: depth)
            }
            return Dictionary(zip(markets, results)) { first, _ in first }
        }
        let batches = URLBatches.split(markets) { orderBooksURL(for: $0, depth: asked) ?? "" }
        let answers = await concurrentResults(batches) { batch throws(AggError) in
            try await fetchOrderBooks(batch, depth: asked)
        }
        var books: [Market: Result<OrderBook, AggError>] = [:]
        for (batch, answer) in zip(batches, answers) {
            switch answer {
            case .success(let found):
                for market in batch {
                    guard var book = found.first(where: { $0.market == market }) else {
                        books[market] = .failure(
                            .notListed(
                                venue: descriptor.id, market: market, code: "",
                                message: "no order book for it in the answer"))
                        continue
                    }
                    book.bids = Array(book.bids.prefix(max(0, depth)))
                    book.asks = Array(book.asks.prefix(max(0, depth)))
                    books[market] = .success(book)
                }
            case .failure(let error):
                for market in batch { books[market] = .failure(error) }
            }
        }
        return books
    }

    /// Exchange rates from `base` (FX venues).
    ///
    /// - Throws: `AggError.invalidCurrency` for a code that is not three letters, and
    ///   `AggError.usage` for a base the source does not give rates from
    ///   (`AdapterDescriptor.rateBases`), both before any request.
    public func rates(base: String) async throws(AggError) -> RateTable {
        let code = try AssetCode.validateCurrency(base)
        if let bases = descriptor.rateBases, !bases.contains(code) {
            throw .usage(
                "\(descriptor.id) gives rates to \(descriptor.homeCurrency) from " + bases.joined(separator: ", ")
                    + " only, not from \(code); use another FX source for other bases")
        }
        return try await fetchRates(RateRequest(base: code))
    }

    /// Whether `coins` (every coin when empty) can be deposited and withdrawn, one row per coin
    /// and network, from the venue's public list (one request). A coin missing from the list has
    /// no row.
    public func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus] {
        let rows = try await fetchTransferStatus()
        guard !coins.isEmpty else { return rows }
        let wanted = Set(coins)
        return rows.filter { wanted.contains($0.coin) }
    }

    /// Everything the event source `id` of the venue shows at `time` (see
    /// `AdapterDescriptor.eventSources`): read by the adapter, or by the core from the market
    /// list or the transfer status (`GenericEventFacts`).
    ///
    /// - Throws: `AggError.usage` for a source the venue does not have, before any request; the
    ///   request's error otherwise (a failed source gives no observation: a failed request is
    ///   not every fact gone), and a decoding error for a generic source's empty answer (an
    ///   empty market list is not every coin delisted).
    public func events(from id: String, at time: Timestamp) async throws(AggError) -> EventObservation {
        guard let source = descriptor.eventSource(id) else {
            let known = descriptor.eventSources.map(\.id)
            throw .usage(
                "\(descriptor.id) has no event source '\(id)'"
                    + (known.isEmpty ? "" : "; it has: " + known.joined(separator: ", ")))
        }
        switch source.reader {
        case .adapter:
            return try await fetchEvents(source, at: time)
        case .marketList:
            let answer = try await marketsAnswer()
            // An empty list is a venue's glitch, not every coin delisted.
            guard !answer.values.isEmpty || !answer.skipped.isEmpty else {
                throw .decoding(venue: descriptor.id, path: "$", detail: "the market list names no market")
            }
            return GenericEventFacts.listed(answer, venue: descriptor.id, source: id, at: time)
        case .transferStatus:
            let rows = try await fetchTransferStatus()
            guard !rows.isEmpty else {
                throw .decoding(venue: descriptor.id, path: "$", detail: "the transfer status names no coin")
            }
            return GenericEventFacts.closures(rows, venue: descriptor.id, source: id, at: time)
        }
    }

    /// `asked` within 1 and `maximum`: what a request asks the venue for.
    private static func clamped(_ asked: Int, to maximum: Int) -> Int {
        min(max(asked, 1), maximum)
    }
}

extension AggError {
    /// Whether this is `.notListed`.
    public var isNotListed: Bool {
        if case .notListed = self { return true }
        return false
    }
}
