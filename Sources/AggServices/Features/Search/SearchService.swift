import AggCore
import AggJSON
import FoundationEssentials

/// The search use case: every chosen venue's market list at once, matched against the query
/// and ranked, with last prices where a venue gives every ticker in one request.
package struct SearchService: Sendable {
    /// What one venue contributed.
    struct VenueResult: Sendable {
        var venue: String
        var matches: [MarketSearch.Match] = []
        var prices: [Market: Decimal] = [:]
        /// The requests that failed; the matches are those of the requests that answered.
        var failures: [MarketList.Failure] = []
        /// The entries of the venue's list that did not decode (each costs only itself).
        var skipped: [SkippedEntry] = []
    }

    /// A failed request of one venue's list, as `quote` reports a failed `--all`: its part of
    /// the list is the market `ALL/<currency>`.
    package struct VenueFailure: Sendable {
        var venue: String
        var failure: MarketList.Failure

        var symbol: String? { failure.quoteCurrency.map { "ALL/\($0)" } }

        /// "bithumb ALL/BTC: error 5500: ...", or the error's own line for a whole list.
        package var line: String {
            guard let symbol else { return failure.error.description }
            return "\(venue) \(symbol): \(failure.error.summaryNamingNoMarket)"
        }

        var json: JSONValue { JSONOutput.error(failure.error, exchange: venue, symbol: symbol) }
    }

    /// What a search found: the ranked rows with their prices, the requests that failed, and
    /// the list entries skipped.
    package struct Result: Sendable {
        package var rows: [(listing: MarketListing, last: Decimal?)]
        package var failures: [VenueFailure]
        package var skipped: [SkippedEntry] = []
    }

    var factory: AdapterFactory

    /// The `limit` best matches of `query` on `venues` (markets quoted in `quote` only, when set).
    func search(_ query: String, quote: String?, limit: Int, venues: [AdapterDescriptor]) async throws(AggError)
        -> Result
    {
        var adapters: [any VenueAdapter] = []
        for venue in venues { adapters.append(try factory.adapter(id: venue.id)) }
        let homes = Dictionary(venues.map { ($0.id, $0.homeCurrency) }) { first, _ in first }
        let results = await concurrentMap(adapters) { adapter in
            await Self.search(adapter, query: query, quote: quote, homes: homes)
        }.sorted { $0.venue < $1.venue }
        let matches = Array(
            MarketSearch.rank(results.flatMap { $0.matches.map(\.listing) }, query: query, homeCurrencies: homes)
                .prefix(limit))
        let prices = results.reduce(into: [String: Decimal]()) { all, result in
            for (market, price) in result.prices { all[QuoteRendering.key(result.venue, market)] = price }
        }
        let rows = matches.map { ($0.listing, prices[QuoteRendering.key($0.listing.exchange, $0.listing.market)]) }
        let failures = results.flatMap { result in
            result.failures.map { VenueFailure(venue: result.venue, failure: $0) }
        }
        return Result(rows: rows, failures: failures, skipped: results.flatMap(\.skipped))
    }

    /// The venues to search: those named (each must list its markets), else the config file's
    /// that can, else every venue that can.
    static func venues(_ exchanges: ExchangeSelection, registry: AdapterRegistry) throws(AggError)
        -> [AdapterDescriptor]
    {
        var chosen: [AdapterDescriptor] = []
        for id in exchanges.ids {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.markets) else {
                if exchanges.explicit {
                    throw .usage("\(descriptor.id) does not provide a \(Capability.markets.title); see 'agg exchanges'")
                }
                continue
            }
            if !chosen.contains(where: { $0.id == descriptor.id }) { chosen.append(descriptor) }
        }
        if exchanges.ids.isEmpty { chosen = registry.descriptors(supporting: .markets) }
        guard !chosen.isEmpty else { throw .usage("no registered venue provides a market list; see 'agg exchanges'") }
        return chosen
    }

    /// One venue's matches, and their last prices when the venue gives all tickers at once.
    static func search(
        _ adapter: any VenueAdapter, query: String, quote: String?, homes: [String: String]
    ) async -> VenueResult {
        let descriptor = adapter.descriptor
        var result = VenueResult(venue: descriptor.id)
        let list = await adapter.marketList(quotedIn: quote)
        result.failures = list.failures
        result.skipped = list.skipped
        let listings = list.listings.filter { quote == nil || $0.market.quote == quote }
        result.matches = MarketSearch.rank(listings, query: query, homeCurrencies: homes)
        for match in result.matches {
            if let last = match.listing.last { result.prices[match.listing.market] = last }
        }
        guard descriptor.supports(.allTickers) else { return result }
        // Only the quote currencies whose matches came without a price need the tickers.
        let currencies = descriptor.quoteCurrencies.filter { currency in
            result.matches.contains { $0.listing.market.quote == currency && $0.listing.last == nil }
        }
        for currency in currencies {
            do throws(AggError) {
                for quote in try await adapter.allQuotes(quotedIn: currency) {
                    result.prices[quote.market] = quote.last
                }
            } catch {
                result.failures.append(MarketList.Failure(quoteCurrency: currency, error: error))
            }
        }
        return result
    }

    package init(factory: AdapterFactory) {
        self.factory = factory
    }
}
