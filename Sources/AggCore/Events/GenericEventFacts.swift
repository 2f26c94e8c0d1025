/// The facts of the generic event sources, the same for every venue: a market list's coins and a
/// transfer status's closed networks. (A venue's own sources are read by its adapter.)
public enum GenericEventFacts {
    /// One `listed` fact per coin of a market list, whatever its quote currencies (a coin listed
    /// only against BTC is listed), in the list's order; its detail is the first of its listings'
    /// names, `korean / english` (one when the venue gives one, empty when none). A skipped entry
    /// naming a market makes its coin unread, so that a damaged entry is not a delisting.
    public static func listed(
        _ answer: BulkAnswer<MarketListing>, venue: String, source: String, at time: Timestamp
    ) -> EventObservation {
        var facts: [EventFact] = []
        var seen: Set<String> = []
        for listing in answer.values where seen.insert(listing.market.base).inserted {
            facts.append(
                EventFact(
                    condition: .listed, symbol: listing.market.base,
                    detail: names(korean: listing.koreanName, english: listing.englishName)))
        }
        return EventObservation(
            venue: venue, source: source, observedAt: time, facts: facts, skipped: answer.skipped,
            unread: Set(answer.skipped.compactMap { $0.market?.base }))
    }

    /// `비트코인 / Bitcoin`: the names a venue gives a coin, empty ones left out.
    public static func names(korean: String?, english: String?) -> String {
        [korean, english].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " / ")
    }

    /// A `depositClosed` fact per coin and network whose deposits are `closed`, and a
    /// `withdrawClosed` fact likewise, in the rows' order. `unknown` is not closed: a coin with an
    /// `unknown` state is unread instead (its earlier facts neither go nor stay new), since a
    /// venue that stops saying is not a venue that reopened.
    public static func closures(
        _ rows: [TransferStatus], venue: String, source: String, at time: Timestamp
    ) -> EventObservation {
        var facts: [EventFact] = []
        var unread: Set<String> = []
        for row in rows {
            if row.deposit == .closed {
                facts.append(EventFact(condition: .depositClosed, symbol: row.coin, network: row.network))
            }
            if row.withdraw == .closed {
                facts.append(EventFact(condition: .withdrawClosed, symbol: row.coin, network: row.network))
            }
            if row.deposit == .unknown || row.withdraw == .unknown { unread.insert(row.coin) }
        }
        return EventObservation(venue: venue, source: source, observedAt: time, facts: facts, unread: unread)
    }
}
