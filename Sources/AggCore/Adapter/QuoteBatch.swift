/// How a venue answers the tickers of several markets: descriptor data, read by the core
/// (`VenueAdapter.quotes(for:)`), so that no adapter turns a batch into per-market results.
public enum QuoteBatching: Sendable, Equatable {
    /// One `quote(for:)` request a market, all at once.
    case single
    /// The markets of one quote currency, two or more, share one all-tickers request
    /// (`fetchAllQuotes`): one request instead of one a market, against rate limits of 1 to 10
    /// a second. A quote currency asked for one market uses `quote(for:)`.
    case allTickersPerQuote
    /// Markets named together in one request (`fetchQuotes`), whatever their quote currencies:
    /// at most `max` a request (no count limit when `nil`), in URLs of at most
    /// `URLBatches.maximumURLLength` bytes (`quotesURL(for:)`). One market alone uses
    /// `quote(for:)`. A venue that fails a whole request for one unknown market (Upbit's 404
    /// "Code not found") has the unknown ones read from its market list and the rest asked again.
    case symbolList(max: Int?)
}

/// Batch-to-per-market results, for every venue: the one place where an answer holding many
/// tickers (an all-tickers endpoint, or a batch request that omits what the venue does not
/// list) becomes each market's result.
public enum QuoteBatch {
    /// Each market's quote from `quotes`; a market the answer has no ticker for is not listed
    /// on `venue` (the answer is the venue's whole list, or what it knows of the batch).
    public static func results(for markets: [Market], from quotes: [Quote], venue: String)
        -> [Market: QuoteResult]
    {
        BulkAnswer(values: quotes).results(for: markets, venue: venue)
    }

    /// Every market failing with `error`.
    public static func failing(_ markets: [Market], with error: AggError) -> [Market: QuoteResult] {
        var results: [Market: QuoteResult] = [:]
        for market in markets { results[market] = .failure(error) }
        return results
    }

    /// Answers `markets` as `adapter.descriptor.batching` says. A market in a quote the venue
    /// does not serve fails at once (`AdapterDescriptor.unserved`), without a request. A market
    /// missing from a batch answer is not listed; a market whose entry of the answer was skipped
    /// fails with that entry's own error, and costs no other market; a failed request fails its
    /// own markets, with one error naming its URL.
    static func answer(_ markets: [Market], adapter: some VenueAdapter) async -> [Market: QuoteResult] {
        let descriptor = adapter.descriptor
        if descriptor.batching == .single {
            return await each(Array(Set(markets)), adapter: adapter)
        }
        var results: [Market: QuoteResult] = [:]
        var wanted: [Market] = []
        // A set, not `wanted.contains`: 10,000 markets would cost 50 M comparisons.
        var seen: Set<Market> = []
        for market in markets where seen.insert(market).inserted {
            if let error = descriptor.unserved(market) {
                results[market] = .failure(error)
            } else {
                wanted.append(market)
            }
        }
        let answered: [[Market: QuoteResult]]
        switch descriptor.batching {
        case .single:
            answered = []
        case .allTickersPerQuote:
            let byQuote = Dictionary(grouping: wanted, by: \.quote)
            let groups = byQuote.keys.sorted().map { byQuote[$0] ?? [] }
            answered = await concurrentMap(groups) { group in await allTickers(group, adapter: adapter) }
        case .symbolList(let maximum):
            if wanted.count == 1 {
                answered = [await each(wanted, adapter: adapter)]
            } else {
                let batches = URLBatches.split(wanted, maximumCount: maximum ?? .max) { adapter.quotesURL(for: $0) }
                answered = await concurrentMap(batches) { batch in await symbolList(batch, adapter: adapter) }
            }
        }
        for partial in answered { results.merge(partial) { first, _ in first } }
        return results
    }

    /// One `quote(for:)` a market, all at once.
    private static func each(_ markets: [Market], adapter: some VenueAdapter) async -> [Market: QuoteResult] {
        let results = await concurrentResults(markets) { market throws(AggError) in try await adapter.quote(for: market)
        }
        return Dictionary(zip(markets, results)) { first, _ in first }
    }

    /// The markets of one quote currency: one all-tickers request, or `quote(for:)` for one.
    private static func allTickers(_ markets: [Market], adapter: some VenueAdapter) async -> [Market: QuoteResult] {
        guard markets.count > 1, let quote = markets.first?.quote else { return await each(markets, adapter: adapter) }
        let answer = await Result<BulkAnswer<Quote>, AggError>.catching { () async throws(AggError) in
            try await adapter.allQuotesAnswer(quotedIn: quote)
        }
        switch answer {
        case .success(let quotes): return quotes.results(for: markets, venue: adapter.descriptor.id)
        case .failure(let error): return failing(markets, with: error)
        }
    }

    /// The markets of one URL batch: one request, asked again for the listed markets when the
    /// venue failed it for an unknown one.
    private static func symbolList(_ markets: [Market], adapter: some VenueAdapter) async -> [Market: QuoteResult] {
        switch await named(markets, adapter: adapter) {
        case .success(let answered): return answered
        case .failure(let error) where adapter.descriptor.meansNotListed(error):
            return await retryListed(markets, after: error, adapter: adapter)
        case .failure(let error): return failing(markets, with: error)
        }
    }

    /// One `fetchQuotes` request for `markets`; a market missing from the answer is not listed.
    private static func named(_ markets: [Market], adapter: some VenueAdapter) async
        -> Result<[Market: QuoteResult], AggError>
    {
        await .catching { () async throws(AggError) in
            try await adapter.fetchQuotes(markets).results(for: markets, venue: adapter.descriptor.id)
        }
    }

    /// After a batch failed on an unknown market: the market list tells which markets are
    /// unknown, and the rest are asked for again. Without the list, each market is asked for on
    /// its own.
    private static func retryListed(_ markets: [Market], after error: AggError, adapter: some VenueAdapter) async
        -> [Market: QuoteResult]
    {
        let listed: Set<Market>
        do throws(AggError) {
            listed = Set(try await adapter.markets().map(\.market))
        } catch {
            return await each(markets, adapter: adapter)
        }
        var results: [Market: QuoteResult] = [:]
        let remaining = markets.filter { listed.contains($0) }
        for market in markets where !listed.contains(market) {
            results[market] = .failure(adapter.descriptor.notListed(error, market: market))
        }
        if remaining.count == 1 {
            results.merge(await each(remaining, adapter: adapter)) { first, _ in first }
        } else if !remaining.isEmpty {
            switch await named(remaining, adapter: adapter) {
            case .success(let answered): results.merge(answered) { first, _ in first }
            case .failure(let error): results.merge(failing(remaining, with: error)) { first, _ in first }
            }
        }
        return results
    }
}
