import AggCore
import FoundationEssentials

/// The embedded event store: what `agg record --events` writes and `agg events` reads.
///
/// `observe` is one `BEGIN IMMEDIATE` transaction (through `historyWrite`, so it waits for another
/// connection's lock without holding a thread): it reads the source's state, runs
/// `EventDiff.transition`, and writes the events and the new state before it commits. Because
/// the read happens under the write lock, two recorders on one file observing the same change
/// both diff against the state the first one wrote: the change is recorded once.
extension Store: EventStore {
    public func observe(_ observation: EventObservation) async throws(AggError) -> [MarketEvent] {
        try await historyWrite("record the \(observation.venue) \(observation.source) events in") {
            connection throws(SQLiteError) -> [MarketEvent] in
            guard case .current(let previous) = try Self.state(of: observation, connection: connection) else {
                return []
            }
            let transition = EventDiff.transition(from: previous, to: observation)
            try Self.insert(transition.events, source: observation.source, connection: connection)
            try Self.replaceState(transition.state, of: observation, connection: connection)
            return transition.events
        }
    }

    public func events(_ query: EventQuery) async throws(AggError) -> [MarketEvent] {
        try withConnection("read the market events from") { connection throws(SQLiteError) in
            var condition = "first_observed >= ?"
            var values: [SQLiteValue] = [.integer(query.since.millisecondsSince1970)]
            if let until = query.until {
                condition += " AND first_observed < ?"
                values.append(.integer(until.millisecondsSince1970))
            }
            for (column, texts) in [
                ("kind", query.kinds.map(\.rawValue).sorted()), ("venue", query.venues), ("symbol", query.symbols),
            ] where !texts.isEmpty {
                condition += " AND \(column) IN (" + texts.map { _ in "?" }.joined(separator: ", ") + ")"
                values += texts.map { .text($0) }
            }
            let events = try connection.query(
                """
                SELECT venue, kind, symbol, network, subject, detail, first_observed, venue_time
                FROM market_event WHERE \(condition) ORDER BY first_observed, id
                """,
                values
            ) { row throws(SQLiteError) in
                let kindText = try row.requiredText(at: 1)
                guard let kind = MarketEventKind(rawValue: kindText) else {
                    throw SQLiteError(
                        invalidData: "a stored market event has the unknown kind '\(kindText.prefix(30))'")
                }
                return MarketEvent(
                    venue: try row.requiredText(at: 0), kind: kind, symbol: row.text(at: 2), network: row.text(at: 3),
                    subject: try row.requiredText(at: 4), detail: try row.requiredText(at: 5),
                    firstObserved: Timestamp(millisecondsSince1970: try row.requiredInt64(at: 6)),
                    venueTime: row.int64(at: 7).map(Timestamp.init(millisecondsSince1970:)))
            }
            return MarketEventOrder.sorted(events)
        }
    }

    /// The source's stored facts (`nil` when it was never observed), or `.outdated` when the
    /// store holds a later observation of it than `observation` (a recorder whose answer came
    /// late): diffing that one would undo the later state and record each change again.
    private static func state(of observation: EventObservation, connection: SQLiteConnection) throws(SQLiteError)
        -> StoredEventState
    {
        let key: [SQLiteValue] = [.text(observation.venue), .text(observation.source)]
        let seen = try connection.query("SELECT observed_at FROM event_source WHERE venue = ? AND source = ?", key) {
            row throws(SQLiteError) in try row.requiredInt64(at: 0)
        }
        guard let observedAt = seen.first else { return .current(nil) }
        guard observation.observedAt.millisecondsSince1970 >= observedAt else { return .outdated }
        return .current(
            try connection.query(
                """
                SELECT condition, symbol, network, subject, detail, venue_time FROM event_state
                WHERE venue = ? AND source = ? ORDER BY fact_key
                """,
                key
            ) { row throws(SQLiteError) in
                let conditionText = try row.requiredText(at: 0)
                guard let condition = EventFact.Condition(rawValue: conditionText) else {
                    throw SQLiteError(
                        invalidData: "a stored event fact has the unknown condition '\(conditionText.prefix(30))'")
                }
                return EventFact(
                    condition: condition, symbol: row.text(at: 1), network: row.text(at: 2),
                    subject: try row.requiredText(at: 3), detail: try row.requiredText(at: 4),
                    venueTime: row.int64(at: 5).map(Timestamp.init(millisecondsSince1970:)))
            })
    }

    private static func insert(_ events: [MarketEvent], source: String, connection: SQLiteConnection)
        throws(SQLiteError)
    {
        guard !events.isEmpty else { return }
        let insert = try connection.prepare(
            """
            INSERT INTO market_event (venue, source, kind, symbol, network, subject, detail, first_observed, venue_time)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for event in events {
            insert.reset()
            try insert.bind([
                .text(event.venue), .text(source), .text(event.kind.rawValue), .text(event.symbol),
                .text(event.network), .text(event.subject), .text(event.detail),
                .integer(event.firstObserved.millisecondsSince1970), .integer(event.venueTime?.millisecondsSince1970),
            ])
            _ = try insert.run()
        }
    }

    private static func replaceState(
        _ facts: [EventFact], of observation: EventObservation, connection: SQLiteConnection
    ) throws(SQLiteError) {
        let key: [SQLiteValue] = [.text(observation.venue), .text(observation.source)]
        _ = try connection.run(
            """
            INSERT INTO event_source (venue, source, observed_at) VALUES (?, ?, ?)
            ON CONFLICT (venue, source) DO UPDATE SET observed_at = excluded.observed_at
            """,
            key + [.integer(observation.observedAt.millisecondsSince1970)])
        _ = try connection.run("DELETE FROM event_state WHERE venue = ? AND source = ?", key)
        guard !facts.isEmpty else { return }
        let insert = try connection.prepare(
            """
            INSERT OR REPLACE INTO event_state
                (venue, source, fact_key, condition, symbol, network, subject, detail, venue_time)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for fact in facts {
            insert.reset()
            try insert.bind(
                key + [
                    .text(fact.identity.key), .text(fact.condition.rawValue), .text(fact.symbol), .text(fact.network),
                    .text(fact.subject), .text(fact.detail), .integer(fact.venueTime?.millisecondsSince1970),
                ])
            _ = try insert.run()
        }
    }
}
