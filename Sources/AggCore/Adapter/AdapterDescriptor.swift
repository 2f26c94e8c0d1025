/// What a venue is and can do, as plain data: who it is, what it serves, how fast it may be
/// asked, and how it says "not listed" and "slow down".
public struct AdapterDescriptor: Sendable, Equatable {
    /// The stable id used on the command line and in output (`bithumb`).
    public var id: String
    public var displayName: String
    /// ISO 3166 country code of the operator (`KR`).
    public var country: String
    /// The quote currency of its main markets (`KRW`, `USDT`, `USD`).
    public var homeCurrency: String
    /// Every quote currency the adapter can ask for.
    public var quoteCurrencies: [String]
    public var capabilities: Set<Capability>
    /// The sustained request rate the venue allows from one address.
    public var requestsPerSecond: Double
    /// The base URL, without a trailing slash; `AGG_<ID>_URL` overrides it.
    public var defaultBaseURL: String
    /// Who must be credited wherever the data is shown, if the provider asks for it.
    public var attribution: String?
    /// The most rows one request can return, so that the CLI can check `--limit` and `--depth`
    /// before asking.
    public var limits: FetchLimits
    /// What the venue's ticker change is measured against (`nil` when it sends none, or for
    /// venues without tickers). Its quotes carry it; cached quotes get it back from here.
    public var changeBasis: ChangeBasis?
    /// The venue's own error codes that mean "no such market" (Bithumb `5500`, Binance `-1121`,
    /// Upbit's 404 `name`): `VenueClient` reports them as `AggError.notListed` for the market
    /// asked.
    public var notListedCodes: Set<String>
    /// The response header in which the venue reports its remaining quota, if it sends one;
    /// the rate limiter reads it (see `QuotaHeader.pause(after:)`).
    public var quotaHeader: QuotaHeader?
    /// The venue's own error codes that mean "too many requests" when they come in its error
    /// envelope rather than as HTTP 429 (Coinone `4`, OKX `50011`): `VenueClient` reports them as
    /// `AggError.rateLimited`.
    public var rateLimitCodes: Set<String>
    /// The choices the adapter offers in the config file's `venueSettings` (Bithumb's `api`).
    public var settings: [AdapterSetting]
    /// How the tickers of several markets are asked for (`VenueAdapter.quotes(for:)`).
    public var batching: QuoteBatching
    /// The bases an FX source gives rates from, when it does not take any currency (Dunamu
    /// prices ten currencies in KRW); `nil` when it takes any.
    public var rateBases: [String]?
    /// The venue's ticker stream, when it declares `.stream`; `nil` otherwise.
    public var stream: StreamDescriptor?
    /// The venue's published taker fees, for routes and net premiums; `nil` for an FX source.
    public var fees: FeeSchedule?
    /// The withdrawal fees agg ships for a venue that publishes none without a key, used where
    /// its transfer status has none; `nil` when agg ships no table for it.
    public var withdrawalFees: WithdrawalFeeTable?
    /// The venue's event sources (`agg record --events`): the generic ones its capabilities
    /// give (`EventSource.generic`) unless the descriptor names its own list.
    public var eventSources: [EventSource]

    public init(
        id: String, displayName: String, country: String, homeCurrency: String,
        quoteCurrencies: [String],
        capabilities: Set<Capability>, requestsPerSecond: Double, defaultBaseURL: String,
        attribution: String? = nil, limits: FetchLimits = .standard, changeBasis: ChangeBasis? = nil,
        notListedCodes: Set<String> = [], quotaHeader: QuotaHeader? = nil, rateLimitCodes: Set<String> = [],
        settings: [AdapterSetting] = [], batching: QuoteBatching = .single, rateBases: [String]? = nil,
        stream: StreamDescriptor? = nil, fees: FeeSchedule? = nil, eventSources: [EventSource]? = nil,
        withdrawalFees: WithdrawalFeeTable? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.country = country
        self.homeCurrency = homeCurrency
        self.quoteCurrencies = quoteCurrencies
        self.capabilities = capabilities
        self.requestsPerSecond = requestsPerSecond
        self.defaultBaseURL = defaultBaseURL
        self.attribution = attribution
        self.limits = limits
        self.changeBasis = changeBasis
        self.notListedCodes = notListedCodes
        self.quotaHeader = quotaHeader
        self.rateLimitCodes = rateLimitCodes
        self.settings = settings
        self.batching = batching
        self.rateBases = rateBases
        self.stream = stream
        self.fees = fees
        self.withdrawalFees = withdrawalFees
        self.eventSources =
            eventSources ?? EventSource.generic(capabilities: capabilities, requestsPerSecond: requestsPerSecond)
    }

    /// The event source `id`, if the venue has one.
    public func eventSource(_ id: String) -> EventSource? {
        eventSources.first { $0.id == id }
    }

    /// Whether `error` is this venue's own answer for a market it does not list: already
    /// `.notListed`, or a venue error carrying one of `notListedCodes`.
    public func meansNotListed(_ error: AggError) -> Bool {
        switch error {
        case .notListed: true
        case .venue(_, let code, _): notListedCodes.contains(code)
        default: false
        }
    }

    /// Whether the adapter can do `capability`.
    public func supports(_ capability: Capability) -> Bool {
        capabilities.contains(capability)
    }

    /// The `notListed` error for `market` when the venue has no markets in its quote currency;
    /// `nil` when it has.
    public func unserved(_ market: Market) -> AggError? {
        guard !quoteCurrencies.contains(market.quote) else { return nil }
        return .notListed(
            venue: id, market: market, code: "",
            message: "agg asks \(displayName) only for markets in " + quoteCurrencies.joined(separator: ", "))
    }

    /// The `notListed` error for every market quoted in `currency` when the venue serves none
    /// (`ALL/USDT is not listed ...`); `nil` when it serves them.
    public func unserved(quoteCurrency currency: String) -> AggError? {
        unserved(.all(quotedIn: currency))
    }

    /// `error` as "`market` is not listed" when it is the venue's own not-found answer
    /// (`meansNotListed`), keeping the venue's code and message; any other error unchanged.
    public func notListed(_ error: AggError, market: Market) -> AggError {
        guard meansNotListed(error) else { return error }
        if case .notListed = error { return error }
        return .notListed(venue: id, market: market, code: error.code ?? "", message: error.message)
    }

    /// The name of the environment variable that overrides the base URL: `AGG_BITHUMB_URL`.
    public var baseURLVariable: String {
        "AGG_" + id.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + "_URL"
    }

    /// The name of the environment variable that overrides the stream URL: `AGG_UPBIT_WS_URL`.
    public var streamURLVariable: String {
        String(baseURLVariable.dropLast("_URL".count)) + "_WS_URL"
    }
}

/// How many rows a venue gives in one answer (candles, trades, and order book levels a side),
/// and which bar lengths it offers.
public struct FetchLimits: Sendable, Equatable {
    /// The most candles one request returns.
    public var candles: Int
    /// The most recent trades one request returns.
    public var trades: Int
    /// The most order book levels a side one request returns.
    public var bookDepth: Int
    /// The bar lengths the venue offers, so that the CLI can refuse the others before asking.
    public var candleIntervals: [CandleInterval]

    /// Conservative values that the common venues all allow (200 candles, 100 trades, 30 levels,
    /// every interval).
    public static let standard = FetchLimits(candles: 200, trades: 100, bookDepth: 30)

    public init(
        candles: Int, trades: Int, bookDepth: Int, candleIntervals: [CandleInterval] = CandleInterval.allCases
    ) {
        self.candles = candles
        self.trades = trades
        self.bookDepth = bookDepth
        self.candleIntervals = candleIntervals
    }
}
