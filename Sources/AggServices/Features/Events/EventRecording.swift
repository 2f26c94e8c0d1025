import AggCore

/// One event source of one venue and how often `agg record --events` asks it.
package struct EventSourceSchedule: Sendable, Hashable {
    /// The venue's id (`upbit`).
    package var venue: String
    /// The source within the venue (`markets`, `warnings`, `notices`, `transfers`).
    package var source: String
    /// The time between two requests of the source: at least its rate limit allows (market lists
    /// every 5 minutes and notices every minute by default, `EventSource.interval(asked:)`). The
    /// recorder never asks sooner.
    package var interval: Duration

    package init(venue: String, source: String, interval: Duration) {
        self.venue = venue
        self.source = source
        self.interval = interval
    }

    /// `upbit notices`, as messages name the source.
    package var name: String { "\(venue) \(source)" }
}

/// Where `agg record --events` gets its observations: the event sources of the venues and
/// their schedules. The event sources' service binds to it (see `EventObservingBinding`).
package protocol EventObserving: Sendable {
    /// Every source to observe, with its interval.
    var schedules: [EventSourceSchedule] { get }

    /// One observation of the whole of `source` on `venue` now; throws when the source failed
    /// (a failed request is no observation: nothing of its state changes).
    func observe(venue: String, source: String) async throws(AggError) -> EventObservation
}

/// What `agg record --events` records events with: the sources and the store the diff runs in.
package struct EventRecording: Sendable {
    package var observer: any EventObserving
    package var store: any EventStore

    package init(observer: any EventObserving, store: any EventStore) {
        self.observer = observer
        self.store = store
    }

    /// What one tick did with the sources that were due.
    package struct TickOutcome: Sendable, Equatable {
        /// The events the store recorded (none for a source's baseline, none for a change
        /// another recorder on the same store recorded first).
        package var events: [MarketEvent] = []
        /// Sources that failed this tick, having answered before (or never): one line each,
        /// once an outage.
        package var outages: [SourceFailure] = []
        /// Sources that answered again after an outage.
        package var recovered: [String] = []
        /// Sources asked this tick.
        package var asked = 0
    }

    /// A source that failed, and why.
    package struct SourceFailure: Sendable, Equatable {
        package var source: String
        package var error: AggError
    }

    /// When each source is due next and which are down: the recorder's memory between ticks.
    package struct Schedule: Sendable, Equatable {
        /// The monotonic second at which each source is due next.
        var next: [EventSourceSchedule: Double] = [:]
        var down: Set<EventSourceSchedule> = []

        package init() {}

        /// The sources due at `now` (every source at the first tick), each then set due again
        /// `interval` seconds later: a source is never asked sooner than its interval, whatever
        /// the recorder's interval, and one that failed waits its interval as well.
        package mutating func due(_ schedules: [EventSourceSchedule], at now: Double) -> [EventSourceSchedule] {
            var due: [EventSourceSchedule] = []
            for schedule in schedules where (next[schedule] ?? now) <= now {
                due.append(schedule)
                next[schedule] = now + schedule.interval.seconds
            }
            return due
        }
    }

    /// Observes `due` (what `Schedule.due` answered) concurrently and stores each observation
    /// through the store, each in its own transaction: a source that fails, or whose write
    /// fails, costs only itself. Answers, in `due`'s order, each source's events or failure.
    package func observe(_ due: [EventSourceSchedule]) async -> [Result<[MarketEvent], AggError>] {
        let observer = self.observer
        let store = self.store
        return await concurrentMap(due) { source -> Result<[MarketEvent], AggError> in
            do throws(AggError) {
                let observation = try await observer.observe(venue: source.venue, source: source.source)
                return .success(try await store.observe(observation))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The outcome of `answers` to `due`, marking sources down and up in `schedule`: a source
    /// that fails is reported once an outage, and once again when it answers.
    package static func settle(
        _ due: [EventSourceSchedule], _ answers: [Result<[MarketEvent], AggError>], schedule: inout Schedule
    ) -> TickOutcome {
        var outcome = TickOutcome(asked: due.count)
        for (source, answer) in zip(due, answers) {
            switch answer {
            case .success(let events):
                outcome.events += events
                if schedule.down.remove(source) != nil { outcome.recovered.append(source.name) }
            case .failure(let error):
                if schedule.down.insert(source).inserted {
                    outcome.outages.append(SourceFailure(source: source.name, error: error))
                }
            }
        }
        outcome.events = MarketEventOrder.sorted(outcome.events)
        return outcome
    }
}

/// The venues' event sources (`EventSourcesService`) as `agg record --events` observes them.
package enum EventObservingBinding {
    /// The sources of `service`, each at its default interval (never shorter than its minimum).
    struct Sources: EventObserving {
        var service: EventSourcesService

        var schedules: [EventSourceSchedule] { service.schedules() }

        func observe(venue: String, source: String) async throws(AggError) -> EventObservation {
            try await service.observe(venue: venue, source: source).get()
        }
    }

    /// The event sources of `venues` through adapters made with `options` (record's network
    /// options, whose timeouts are already cut to the per-venue deadline, so a hung source stays
    /// inside the tick).
    package static func make(context: CLIContext, options: NetworkOptions, venues: [String]) throws(AggError)
        -> any EventObserving
    {
        Sources(
            service: try EventSourcesService(
                factory: AdapterFactory(context: context, options: options), venues: venues))
    }
}
