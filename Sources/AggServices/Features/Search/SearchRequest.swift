import AggCore
import AggOptions

/// What `agg search` asks for, checked: the query, the venues that list their markets, the
/// quote currency kept and how many results.
package struct SearchRequest: Sendable {
    package var query: String
    package var venues: [AdapterDescriptor]
    /// `--quote`: only markets quoted in this currency.
    var quote: String?
    var limit: Int

    package init(_ arguments: ParsedArguments, options: NetworkOptions, registry: AdapterRegistry) throws(AggError) {
        query = try MarketSearch.validate(arguments.positionals.joined(separator: " "))
        venues = try SearchService.venues(options.exchanges, registry: registry)
        quote = arguments[SearchCommand.quote]
        limit = arguments.value(SearchCommand.limit)
    }
}

extension SearchService {
    /// The answer to `request`: its best matches across its venues, with the last prices.
    package func run(_ request: SearchRequest) async throws(AggError) -> Result {
        try await search(request.query, quote: request.quote, limit: request.limit, venues: request.venues)
    }
}
