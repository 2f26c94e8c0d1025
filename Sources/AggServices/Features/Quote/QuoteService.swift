import AggCore
import AggStore
import FoundationEssentials

/// The quote use case: plan which venues to ask for which markets, ask them all at once (each
/// venue batching as its API allows), stand cached quotes in for failures, and order favorites
/// first. `agg quote` and `agg watch` both use it.
package struct QuoteService: Sendable {
    /// One row of output: a quote, or the error that stood in its place.
    package struct Outcome: Sendable {
        package var exchange: String
        package var market: Market
        var result: QuoteResult
        /// For a failure: the cached quote shown in its place, if one is young enough.
        var stale: StaleQuote? = nil
        /// Whether the quote's source is down although it answered (the hook for a live quote
        /// whose stream has dropped: the stream service sets it). Such a quote is shown stale
        /// whatever its age (`QuoteAging`); a cached stand-in for a failure always is.
        package var sourceDown = false

        package init(
            exchange: String, market: Market, result: QuoteResult, stale: StaleQuote? = nil, sourceDown: Bool = false
        ) {
            self.exchange = exchange
            self.market = market
            self.result = result
            self.stale = stale
            self.sourceDown = sourceDown
        }
    }

    /// What to ask one venue for.
    package struct VenueRequest: Sendable {
        var venue: String
        var markets: [Market]
    }

    /// What to fetch: the venue requests and whether each asks for every market.
    package struct Plan: Sendable {
        var requests: [VenueRequest]
        /// `--all`: every market of each venue, one request each.
        var all: Bool
        /// The quote currency for bare symbols (`nil`: each venue's home currency).
        var quoteCurrency: String?

        package var venues: [String] { requests.map(\.venue) }
    }

    var factory: AdapterFactory
    var registry: AdapterRegistry
    /// Gives the local database for the quote cache and favorites (`nil` without one). `quotes`
    /// calls it once its requests are on their way, so that opening the file (and SQLite reading
    /// back its write-ahead log) happens while the venues answer, not before they are asked.
    var openStore: @Sendable () -> Store? = { nil }
    /// Whether the store's quote cache is read and written (not for `--offline`, whose output
    /// stays that of the recordings).
    var caches: Bool
    var now: @Sendable () -> Timestamp
    /// The last good quote of a venue's market, when the venue's answers come from somewhere that
    /// keeps one (`agg serve`'s snapshot): it stands in, marked stale, for a failure. `nil` for
    /// the command line, whose stand-ins come from the quote cache.
    package var lastGood: (@Sendable (Outcome) -> StaleQuote?)? = nil

    /// Validates symbols and venues before any request is made.
    static func plan(
        symbols: [String], exchanges: ExchangeSelection, quoteCurrency: String?, all: Bool,
        registry: AdapterRegistry
    ) throws(AggError) -> Plan {
        let needed: Capability = all ? .allTickers : .ticker
        var descriptors: [AdapterDescriptor] = []
        for id in exchanges.ids {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(needed) else {
                if !exchanges.explicit { continue }
                throw .usage("\(descriptor.id) cannot give \(needed.title); see 'agg exchanges'")
            }
            if !descriptors.contains(where: { $0.id == descriptor.id }) { descriptors.append(descriptor) }
        }
        let explicit = exchanges.explicit
        if exchanges.ids.isEmpty { descriptors = registry.descriptors(supporting: needed) }
        var requests: [VenueRequest] = []
        for descriptor in descriptors {
            var markets: [Market] = []
            if all {
                let currency = quoteCurrency ?? descriptor.homeCurrency
                guard descriptor.quoteCurrencies.contains(currency) else {
                    if explicit { throw quoteNotServed(descriptor, currency) }
                    continue
                }
            } else {
                for symbol in symbols {
                    let market = try Market.parse(symbol, defaultQuote: quoteCurrency ?? descriptor.homeCurrency)
                    if descriptor.quoteCurrencies.contains(market.quote) {
                        if !markets.contains(market) { markets.append(market) }
                    } else if explicit {
                        throw quoteNotServed(descriptor, market.quote)
                    }
                }
                if markets.isEmpty { continue }
            }
            requests.append(VenueRequest(venue: descriptor.id, markets: markets))
        }
        if requests.isEmpty {
            let named = symbols.joined(separator: " ")
            throw .usage(
                "no registered venue quotes \(named.isEmpty ? "in \(quoteCurrency ?? "")" : named); see 'agg exchanges'"
            )
        }
        return Plan(requests: requests, all: all, quoteCurrency: quoteCurrency)
    }

    private static func quoteNotServed(_ descriptor: AdapterDescriptor, _ currency: String) -> AggError {
        .usage(
            "\(descriptor.id) does not quote in \(currency) (it quotes in \(descriptor.quoteCurrencies.joined(separator: ", ")))"
        )
    }

    /// What `quotes` found: the outcomes to show and, when the service caches, the quotes to
    /// cache once they are shown.
    package struct Answer: Sendable {
        /// Favorites first, with cached quotes standing in for failures.
        package var outcomes: [Outcome]
        /// The cache at the time of this run, and what answered.
        fileprivate var cache: QuoteCache?
        fileprivate var fetched: [Outcome] = []

        /// Caches the quotes that answered. Called after the outcomes are written, so that the
        /// user never waits for the cache; answers a note for `AGG_DEBUG` when they could not
        /// be cached.
        package func rememberQuotes() -> String? {
            cache?.remember(fetched)
        }
    }

    /// The answer to `request`: what `agg quote` and `/v1/quote` show.
    package func run(_ request: QuoteRequest) async throws(AggError) -> Answer {
        try await quotes(request.plan, maxStale: request.maxStaleSeconds)
    }

    /// Fetches the plan, then, with a store, stands cached quotes up to `maxStale` seconds old
    /// in for failures; favorites first. The answer caches what answered when asked to
    /// (`Answer.rememberQuotes`).
    func quotes(_ plan: Plan, maxStale: Int64) async throws(AggError) -> Answer {
        let adapters = try adapters(for: plan)
        async let fetching = Self.fetch(adapters, plan: plan, now: now)
        let store = openStore()
        var fetched = await fetching
        if let lastGood {
            for index in fetched.indices {
                guard case .failure = fetched[index].result else { continue }
                fetched[index].stale = lastGood(fetched[index])
            }
        }
        var answered = fetched
        var cache: QuoteCache?
        if let store, caches {
            cache = QuoteCache(store: store, now: now(), maxAge: maxStale)
            answered = cache?.standIns(for: fetched) ?? fetched
        }
        let outcomes = FavoritesFirst.order(answered, favorites: LocalStore.favorites(kind: .symbol, in: store)) {
            $0.market.base
        }
        return Answer(outcomes: outcomes, cache: cache, fetched: cache == nil ? [] : fetched)
    }

    /// Asks every venue of the plan at once; within a venue the adapter batches as its API allows.
    func fetch(_ plan: Plan) async throws(AggError) -> [Outcome] {
        await Self.fetch(try adapters(for: plan), plan: plan, now: now)
    }

    /// The adapter of each venue of the plan.
    private func adapters(for plan: Plan) throws(AggError) -> [(VenueRequest, any VenueAdapter)] {
        var adapters: [(VenueRequest, any VenueAdapter)] = []
        for request in plan.requests { adapters.append((request, try factory.adapter(id: request.venue))) }
        return adapters
    }

    /// Every venue's outcomes; each quote that answered carries `receivedAt`, the time its
    /// venue's answer arrived (`now` after the request), unless it came with its own (a stream's).
    private static func fetch(
        _ adapters: [(VenueRequest, any VenueAdapter)], plan: Plan, now: @escaping @Sendable () -> Timestamp
    ) async -> [Outcome] {
        let results = await concurrentMap(adapters) { request, adapter in
            let outcomes = await fetchOne(request, adapter: adapter, all: plan.all, quoteCurrency: plan.quoteCurrency)
            return Self.received(outcomes, at: now())
        }
        return results.flatMap { $0 }
    }

    /// `outcomes` with `receivedAt` set to `time` on each quote that has none.
    static func received(_ outcomes: [Outcome], at time: Timestamp) -> [Outcome] {
        var outcomes = outcomes
        for index in outcomes.indices {
            guard case .success(var quote) = outcomes[index].result, quote.receivedAt == nil else { continue }
            quote.receivedAt = time
            outcomes[index].result = .success(quote)
        }
        return outcomes
    }

    private static func fetchOne(
        _ request: VenueRequest, adapter: any VenueAdapter, all: Bool, quoteCurrency: String?
    ) async -> [Outcome] {
        let venue = request.venue
        if all {
            let currency = quoteCurrency ?? adapter.descriptor.homeCurrency
            do throws(AggError) {
                let answer = try await adapter.allQuotesAnswer(quotedIn: currency)
                let quotes = answer.values
                // Sorted through their indices: moving hundreds of whole quotes costs more.
                let answered = quotes.indices.sorted { quotes[$0].market < quotes[$1].market }.map {
                    Outcome(exchange: venue, market: quotes[$0].market, result: .success(quotes[$0]))
                }
                // An entry of the answer that did not decode costs only itself: a failed row
                // naming its market and path, after the ones that answered.
                return answered
                    + answer.skipped.map { entry in
                        Outcome(
                            exchange: venue, market: entry.market ?? Market(base: entry.entry, quote: currency),
                            result: .failure(entry.error))
                    }
            } catch {
                return [
                    Outcome(exchange: venue, market: .all(quotedIn: currency), result: .failure(error))
                ]
            }
        }
        let results = await adapter.quotes(for: request.markets)
        return request.markets.map { market in
            Outcome(
                exchange: venue, market: market,
                result: results[market]
                    ?? .failure(.decoding(venue: venue, path: "$", detail: "no answer for \(market)")))
        }
    }

    package init(
        factory: AdapterFactory, registry: AdapterRegistry, openStore: @escaping @Sendable () -> Store? = { nil },
        caches: Bool, now: @escaping @Sendable () -> Timestamp, lastGood: (@Sendable (Outcome) -> StaleQuote?)? = nil
    ) {
        self.factory = factory
        self.registry = registry
        self.openStore = openStore
        self.caches = caches
        self.now = now
        self.lastGood = lastGood
    }
}
