/// The order every `EventStore` answers events in: oldest first (by first observation), then by
/// venue, kind (in `MarketEventKind`'s order), coin, network and subject; a store sorts what it
/// read with it so that SQLite and PostgreSQL answer the same rows in the same order.
public enum MarketEventOrder {
    /// Whether `left` comes before `right`.
    public static func precedes(_ left: MarketEvent, _ right: MarketEvent) -> Bool {
        if left.firstObserved != right.firstObserved { return left.firstObserved < right.firstObserved }
        if left.venue != right.venue { return left.venue < right.venue }
        if left.kind != right.kind { return left.kind < right.kind }
        if left.symbol != right.symbol { return (left.symbol ?? "") < (right.symbol ?? "") }
        if left.network != right.network { return (left.network ?? "") < (right.network ?? "") }
        return left.subject < right.subject
    }

    /// `events` in this order; events that tie keep their order.
    public static func sorted(_ events: [MarketEvent]) -> [MarketEvent] {
        events.enumerated().sorted { left, right in
            precedes(left.element, right.element)
                ? true
                : precedes(right.element, left.element) ? false : left.offset < right.offset
        }.map(\.element)
    }
}
