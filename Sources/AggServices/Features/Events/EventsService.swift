import AggCore

/// `agg events`'s use case (and `/v1/events`'s): the stored events a query selects.
package struct EventsService: Sendable {
    /// What was asked and what the store answered.
    package struct Report: Sendable, Equatable {
        package var query: EventQuery
        /// In the store's order (`MarketEventOrder`).
        package var events: [MarketEvent]
    }

    var store: any EventStore

    package init(store: any EventStore) {
        self.store = store
    }

    package func run(_ query: EventQuery) async throws(AggError) -> Report {
        Report(query: query, events: try await store.events(query))
    }
}
