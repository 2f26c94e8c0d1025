import AggCore

/// What `agg search` asks for, checked: the query, the venues that list their markets, the
/// quote currency kept and how many results.
struct SearchRequest: Sendable {
    var query: String
    var venues: [AdapterDescriptor]
    /// `--quote`: only markets quoted in this currency.
    var quote: String?
    var limit: Int

    init(_ arguments: ParsedArguments, options: NetworkOptions, registry: AdapterRegistry) throws(AggError) {
        query = try MarketSearch.validate(arguments.positionals.joined(separator: " "))
        venues = try SearchService.venues(options.exchanges, registry: registry)
        quote = arguments[SearchCommand.quote]
        limit = arguments.value(SearchCommand.limit)
    }
}

extension SearchService {
    /// The answer to `request`: its best matches across its venues, with the last prices.
    func run(_ request: SearchRequest) async throws(AggError) -> Result {
        try await search(request.query, quote: request.quote, limit: request.limit, venues: request.venues)
    }
}
