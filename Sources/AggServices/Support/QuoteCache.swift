import AggCore
import AggStore

/// A cached quote standing in for a venue that failed: the last good quote of its market, with
/// how old it is.
package struct StaleQuote: Sendable, Equatable {
    /// The quote as it was fetched.
    var quote: Quote
    /// When agg fetched it.
    var fetchedAt: Timestamp
    /// Whole seconds from `fetchedAt` to the run that shows it (never negative).
    var ageSeconds: Int64

    /// A stale quote with every field given.
    /// A quote cached without its receive time takes `fetchedAt` as one.
    package init(quote: Quote, fetchedAt: Timestamp, ageSeconds: Int64) {
        self.quote = quote
        if quote.receivedAt == nil { self.quote.receivedAt = fetchedAt }
        self.fetchedAt = fetchedAt
        self.ageSeconds = ageSeconds
    }
}

/// `agg quote`'s memory of the last good quote of each venue and market, kept in the local
/// database so that a venue that fails can still be shown, marked stale.
///
/// Everything here is best effort: without a store, or when it cannot be read or written, the
/// cache is simply empty, and nothing is said about it except as a debug note (`AGG_DEBUG=1`).
/// A write never holds up a run: when another process keeps the database's write lock for more
/// than `Store.cacheWriteWaitMilliseconds`, this run's quotes are not cached.
package struct QuoteCache {
    /// The database, or `nil` when it could not be had.
    var store: Store?
    /// The time of this run.
    var now: Timestamp
    /// The oldest a cached quote may be, in seconds, to stand in for a failed venue; 0 turns
    /// stale answers off.
    var maxAge: Int64

    /// Remembers every quote of `outcomes` as fetched now, and answers a note for `AGG_DEBUG`
    /// when they could not be cached.
    @discardableResult
    func remember(_ outcomes: [QuoteService.Outcome]) -> String? {
        guard let store else { return nil }
        let quotes = outcomes.compactMap { outcome -> Quote? in
            if case .success(let quote) = outcome.result { quote } else { nil }
        }
        do throws(AggError) {
            switch try store.cacheQuotes(quotes, fetchedAt: now) {
            case .written: return nil
            case .skippedBusy:
                return "quote cache: \(store.path) is being written by another process; "
                    + "\(quotes.count) \(quotes.count == 1 ? "quote" : "quotes") not cached this time"
            }
        } catch {
            return "quote cache: \(error.summary)"
        }
    }

    /// `outcomes` with a stale quote attached to each failure that has a cached quote younger
    /// than `maxAge`. A venue that says the market is not listed has answered: its old quotes
    /// are not shown.
    func standIns(for outcomes: [QuoteService.Outcome]) -> [QuoteService.Outcome] {
        // Most runs have no failure: then the outcomes are not copied.
        guard let store, maxAge > 0, outcomes.contains(where: { if case .failure = $0.result { true } else { false } })
        else { return outcomes }
        return outcomes.map { outcome in
            guard case .failure(let error) = outcome.result, !error.isNotListed,
                let cached = try? store.cachedQuote(exchange: outcome.exchange, market: outcome.market)
            else { return outcome }
            let ageMilliseconds = now.millisecondsSince1970 - cached.fetchedAt.millisecondsSince1970
            guard ageMilliseconds < maxAge * 1000 else { return outcome }
            var standIn = outcome
            // The basis is the cached quote's own (none for a quote cached before agg kept it),
            // not the venue's descriptor's: Bithumb's v1 quotes have none.
            standIn.stale = StaleQuote(
                quote: cached.quote, fetchedAt: cached.fetchedAt, ageSeconds: max(ageMilliseconds, 0) / 1000)
            return standIn
        }
    }
}
