import AggCore
import AggServices
import FoundationEssentials

extension ServeSnapshot {
    /// Takes the changed outcomes of the venues' streams: a fresh quote replaces its market's
    /// (and makes its venue fresh when none of its markets is down); a failure (the venue's
    /// stream is down, or its REST fallback failed) keeps the market's last quote and serves the
    /// venue stale, as a failed poll does, until every market is fresh again.
    mutating func apply(live outcomes: [QuoteService.Outcome], at time: Timestamp) {
        var byVenue: [String: [QuoteService.Outcome]] = [:]
        for outcome in outcomes { byVenue[outcome.exchange, default: []].append(outcome) }
        for (id, changes) in byVenue {
            guard var venue = venues[id] else { continue }
            venue.apply(live: changes, at: time)
            venues[id] = venue
        }
    }
}

extension ServeSnapshot.Venue {
    mutating func apply(live outcomes: [QuoteService.Outcome], at time: Timestamp) {
        for outcome in outcomes {
            if let quote = outcome.freshQuote {
                down.removeValue(forKey: quote.market)
                if byMarket[quote.market] != nil, let index = quotes.firstIndex(where: { $0.market == quote.market }) {
                    quotes[index] = quote
                } else {
                    quotes.append(quote)
                }
                byMarket[quote.market] = quote
            } else if let error = outcome.failure, !error.isNotListed {
                // A market the venue no longer lists (in a gap fill) is not a stream down.
                down[outcome.market] = error
            }
        }
        settle(at: time)
    }

    /// Connection `connection` of the venue's stream is down (`down`: why), or live again.
    mutating func stream(connection: Int, down error: AggError?, at time: Timestamp) {
        streamDown[connection] = error
        settle(at: time)
    }

    /// Fresh when no stream connection and no market is down; else failed (quotes kept, served
    /// stale), with the first reason.
    private mutating func settle(at time: Timestamp) {
        if let error = streamDown.keys.sorted().first.flatMap({ streamDown[$0] }) ?? down.values.first {
            result = .failure(error)
        } else {
            result = .success(quotes)
            fetched = time
        }
    }
}
