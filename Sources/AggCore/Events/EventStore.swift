/// Where market events and each source's last observed facts are kept: the same SQLite file or
/// PostgreSQL database as the recorded history.
///
/// The diff runs inside the store's transaction (`EventDiff.transition`), against the state
/// stored for the observation's venue and source, so that a restarted recorder picks up where
/// it left off and two recorders sharing a database never record one change twice.
public protocol EventStore: Sendable {
    /// Diffs `observation` against its source's stored facts, stores the events it raises and
    /// the source's new state in one transaction, and answers those events (none for the
    /// source's first observation, which is its baseline). An observation older than the one
    /// the store holds for the source (another recorder's came first though made later) changes
    /// nothing and raises nothing.
    func observe(_ observation: EventObservation) async throws(AggError) -> [MarketEvent]

    /// The stored events that `query` selects, oldest first (by first observation), then by
    /// venue, kind, coin, network and subject.
    func events(_ query: EventQuery) async throws(AggError) -> [MarketEvent]
}

/// What a store holds for a source when an observation of it comes.
public enum StoredEventState: Sendable, Equatable {
    /// The facts to diff against: `nil` when the source was never observed.
    case current([EventFact]?)
    /// The store holds a later observation of the source: this one is dropped.
    case outdated
}
