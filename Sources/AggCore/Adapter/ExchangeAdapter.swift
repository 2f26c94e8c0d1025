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
/// An adapter declares what it can do in its `descriptor` and implements the methods for those
/// capabilities; every other method has a default that throws `AggError.unsupported`, so the
/// protocol can grow without breaking adapters. The contract checker in `AggTestKit`
/// (`AdapterContract`) holds every registered adapter to this: declared capabilities answer,
/// the others throw `unsupported`, the venue's not-found answer is `notListed` for the market
/// asked, and every error is one line naming the venue.
public protocol ExchangeAdapter: Sendable {
    /// Identity, capabilities and defaults, as data.
    var descriptor: AdapterDescriptor { get }

    /// The ticker of one market.
    func quote(for market: Market) async throws(AggError) -> Quote

    /// Tickers of several markets, in as few requests as the venue allows. Each market gets its
    /// own result, so that one unlisted market does not hide the others.
    func quotes(for markets: [Market]) async -> [Market: QuoteResult]

    /// Every ticker quoted in `currency`, in one request.
    func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote]

    /// Every ticker quoted in `currency`, with the entries of the venue's answer that were
    /// skipped because they did not decode (each costs only itself; see `BulkAnswer`).
    func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote>

    /// Every market the venue lists.
    func markets() async throws(AggError) -> [MarketListing]

    /// Every market the venue lists, with the entries of its list that were skipped because
    /// they did not decode (each costs only itself; see `BulkAnswer`).
    func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing>

    /// The markets quoted in `currency` (every market when `nil`), as far as they could be had:
    /// a venue whose list takes several requests reports the ones that failed beside the
    /// listings of those that answered, instead of failing as a whole.
    func marketList(quotedIn currency: String?) async -> MarketList

    /// The most recent bars, oldest first.
    func candles(for market: Market, interval: CandleInterval, limit: Int) async throws(AggError)
        -> [Candle]

    /// The most recent public trades, newest first.
    func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade]

    /// The order book to `depth` levels a side.
    func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook

    /// Exchange rates from `base` (FX venues).
    func rates(base: String) async throws(AggError) -> RateTable

    /// Whether `coins` can be deposited and withdrawn, one row per coin and network, from the
    /// venue's public list (one request). A coin missing from the list has no row.
    func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus]
}

/// An adapter written in Swift, whose descriptor is known at compile time:
/// `AdapterRegistration(BithumbAdapter.self)` registers it.
public protocol CompiledAdapter: ExchangeAdapter {
    /// Identity, capabilities and defaults, as data.
    static var descriptor: AdapterDescriptor { get }

    init(environment: AdapterEnvironment)
}

extension CompiledAdapter {
    public var descriptor: AdapterDescriptor { Self.descriptor }
}

extension ExchangeAdapter {
    public func quote(for market: Market) async throws(AggError) -> Quote {
        throw .unsupported(venue: descriptor.id, capability: .ticker)
    }

    /// Asks for each market concurrently with `quote(for:)`.
    public func quotes(for markets: [Market]) async -> [Market: QuoteResult] {
        let unique = Array(Set(markets))
        let results = await concurrentResults(unique) { market throws(AggError) in
            try await self.quote(for: market)
        }
        return Dictionary(zip(unique, results)) { first, _ in first }
    }

    public func allQuotes(quotedIn currency: String) async throws(AggError) -> [Quote] {
        throw .unsupported(venue: descriptor.id, capability: .allTickers)
    }

    /// `allQuotes(quotedIn:)`, with nothing skipped: for adapters whose answers are not decoded
    /// entry by entry.
    public func allQuotesAnswer(quotedIn currency: String) async throws(AggError) -> BulkAnswer<Quote> {
        BulkAnswer(values: try await allQuotes(quotedIn: currency))
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        throw .unsupported(venue: descriptor.id, capability: .markets)
    }

    /// `markets()`, with nothing skipped: for adapters whose lists are not decoded entry by entry.
    public func marketsAnswer() async throws(AggError) -> BulkAnswer<MarketListing> {
        BulkAnswer(values: try await markets())
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

    public func candles(for market: Market, interval: CandleInterval, limit: Int)
        async throws(AggError) -> [Candle]
    {
        throw .unsupported(venue: descriptor.id, capability: .candles)
    }

    public func trades(for market: Market, limit: Int) async throws(AggError) -> [Trade] {
        throw .unsupported(venue: descriptor.id, capability: .trades)
    }

    public func orderBook(for market: Market, depth: Int) async throws(AggError) -> OrderBook {
        throw .unsupported(venue: descriptor.id, capability: .orderBook)
    }

    public func rates(base: String) async throws(AggError) -> RateTable {
        throw .unsupported(venue: descriptor.id, capability: .fxRates)
    }

    public func transferStatus(coins: [String]) async throws(AggError) -> [TransferStatus] {
        throw .unsupported(venue: descriptor.id, capability: .transferStatus)
    }
}

extension AggError {
    /// Whether this is `.notListed`.
    public var isNotListed: Bool {
        if case .notListed = self { return true }
        return false
    }
}
