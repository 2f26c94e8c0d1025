import AggCore

/// The event sources of a set of venues: which to observe how often (`schedules`), and one
/// observation of one source (`observe`), for `agg record --events` to store through an
/// `EventStore`, which diffs it against the source's stored facts.
///
/// It stores nothing and keeps no state: the baseline and the diff are `EventDiff`'s, run by the
/// store.
package struct EventSourcesService: Sendable {
    /// The adapters, by venue id, in the order given.
    private let adapters: [(id: String, adapter: any VenueAdapter)]
    private let now: @Sendable () -> Timestamp

    /// The sources of `adapters` (one per venue; a repeated venue counts once), observed at the
    /// time `now` gives.
    package init(adapters: [any VenueAdapter], now: @escaping @Sendable () -> Timestamp) {
        var seen: Set<String> = []
        self.adapters = adapters.compactMap { adapter in
            seen.insert(adapter.descriptor.id).inserted ? (adapter.descriptor.id, adapter) : nil
        }
        self.now = now
    }

    /// The sources of the venues `ids`, through `factory`'s adapters (its transport, rate limits
    /// and retries) and clock.
    ///
    /// - Throws: `AggError.usage` for a venue that is not registered.
    package init(factory: AdapterFactory, venues ids: [String]) throws(AggError) {
        var adapters: [any VenueAdapter] = []
        for id in ids { adapters.append(try factory.adapter(id: id)) }
        self.init(adapters: adapters, now: factory.context.now)
    }

    /// Every source of every venue, in venue order then each venue's order, at the interval
    /// `intervals` asks for its id (`notices`), else its default, never shorter than its minimum.
    package func schedules(intervals: [String: Duration] = [:]) -> [EventSourceSchedule] {
        adapters.flatMap { venue in
            venue.adapter.descriptor.eventSources.map { source in
                EventSourceSchedule(
                    venue: venue.id, source: source.id, interval: source.interval(asked: intervals[source.id]))
            }
        }
    }

    /// One observation of `venue`'s source `source`, made now: the whole set of its facts, or why
    /// there is none (a failed request is no observation, not every fact gone).
    package func observe(venue: String, source: String) async -> Result<EventObservation, AggError> {
        guard let adapter = adapters.first(where: { $0.id == venue })?.adapter else {
            return .failure(
                .usage(
                    "no event sources of '\(venue)' here; venues: " + adapters.map(\.id).joined(separator: ", ")))
        }
        do throws(AggError) {
            return .success(try await adapter.events(from: source, at: now()))
        } catch {
            return .failure(error)
        }
    }
}
