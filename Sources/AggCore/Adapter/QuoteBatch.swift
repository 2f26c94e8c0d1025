/// Several markets answered from one venue answer that holds many tickers (an all-tickers
/// endpoint, or a batch request that omits what the venue does not list).
///
/// Venues whose all-tickers answer costs one request use it for any batch of two or more
/// markets: one request instead of one a market, against rate limits of 1 to 10 a second.
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
}

extension QuoteBatch {
    /// Answers `markets` as a venue with a batch or all-tickers endpoint can: a market in a quote
    /// the venue does not serve fails at once (`VenueClient.unserved`); a quote currency asked for
    /// one market uses `single`; a quote currency asked for several markets uses one `batch`
    /// request (given the quote and its markets), and the quote currencies are asked
    /// concurrently. A market missing from a batch answer is not listed; a market whose entry of
    /// the answer was skipped fails with that entry's own error, and costs no other market.
    ///
    /// With `batchURL` (the URL of a batch request for some markets), the markets of a quote
    /// currency are cut into batches whose URLs fit `URLBatches.maximumURLLength`, each asked
    /// on its own: a failed batch fails its own markets, with one error naming its URL.
    public static func answer(
        _ markets: [Market], client: VenueClient,
        batchURL: (@Sendable ([Market]) -> String)? = nil,
        single: @escaping @Sendable (Market) async throws(AggError) -> Quote,
        batch: @escaping @Sendable (_ quote: String, _ markets: [Market]) async throws(AggError) -> BulkAnswer<Quote>
    ) async -> [Market: QuoteResult] {
        var results: [Market: QuoteResult] = [:]
        var wanted: [Market] = []
        // A set, not `wanted.contains`: 10,000 markets would cost 50 M comparisons.
        var seen: Set<Market> = []
        for market in markets where seen.insert(market).inserted {
            if let error = client.unserved(market) {
                results[market] = .failure(error)
            } else {
                wanted.append(market)
            }
        }
        let byQuote = Dictionary(grouping: wanted, by: \.quote)
        let groups = byQuote.keys.sorted().flatMap { quote in
            let markets = byQuote[quote] ?? []
            let batches = batchURL.map { URLBatches.split(markets, url: $0) } ?? [markets]
            return batches.map { QuoteGroup(quote: quote, markets: $0) }
        }
        let venue = client.venue
        let answered = await concurrentMap(groups) { group -> [Market: QuoteResult] in
            if group.markets.count == 1, let market = group.markets.first {
                let outcome = await QuoteResult.catching { () async throws(AggError) in try await single(market) }
                return [market: outcome]
            }
            let answer = await Result<BulkAnswer<Quote>, AggError>.catching { () async throws(AggError) in
                try await batch(group.quote, group.markets)
            }
            switch answer {
            case .success(let quotes): return quotes.results(for: group.markets, venue: venue)
            case .failure(let error): return QuoteBatch.failing(group.markets, with: error)
            }
        }
        for partial in answered { results.merge(partial) { first, _ in first } }
        return results
    }
}

/// The markets of one quote currency, asked for together.
private struct QuoteGroup: Sendable {
    var quote: String
    var markets: [Market]
}
