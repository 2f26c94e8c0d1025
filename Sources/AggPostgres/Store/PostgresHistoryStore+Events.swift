import AggCore
import FoundationEssentials

/// Market events in the PostgreSQL store, shared by recorders on several machines.
///
/// `observe` is one transaction that first takes a transaction-level advisory lock on the
/// observation's (venue, source) (`pg_advisory_xact_lock(hashtextextended(venue|source, seed))`),
/// then reads the source's state, runs `EventDiff.transition` and writes the events and the new
/// state. A second recorder observing the same source waits for the lock and then diffs against
/// the state the first one committed, so each change is recorded once; sources of different
/// venues never wait for each other.
extension PostgresHistoryStore: EventStore {
    public func observe(_ observation: EventObservation) async throws(AggError) -> [MarketEvent] {
        try await perform { connection throws(PostgresError) -> [MarketEvent] in
            try connection.transaction { () throws(PostgresError) -> [MarketEvent] in
                let key = [observation.venue, observation.source]
                try connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1 || '|' || $2, \(PostgresSchema.eventLockSeed)))",
                    key)
                guard case .current(let previous) = try Self.state(of: observation, connection) else { return [] }
                let transition = EventDiff.transition(from: previous, to: observation)
                try Self.insert(transition.events, source: observation.source, connection)
                try connection.query(
                    """
                    INSERT INTO event_source (venue, source, observed_at) VALUES ($1, $2, $3::timestamptz)
                    ON CONFLICT (venue, source) DO UPDATE SET observed_at = EXCLUDED.observed_at
                    """, key + [observation.observedAt.description])
                try connection.query("DELETE FROM event_state WHERE venue = $1 AND source = $2", key)
                let facts = transition.state
                if !facts.isEmpty {
                    try connection.query(
                        """
                        INSERT INTO event_state
                            (venue, source, fact_key, condition, symbol, network, subject, detail, venue_time)
                        SELECT $1::text, $2::text, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::timestamptz[])
                        ON CONFLICT DO NOTHING
                        """,
                        key + [
                            PostgresArray.literal(facts.map(\.identity.key)),
                            PostgresArray.literal(facts.map(\.condition.rawValue)),
                            PostgresArray.literal(facts.map(\.symbol)), PostgresArray.literal(facts.map(\.network)),
                            PostgresArray.literal(facts.map(\.subject)), PostgresArray.literal(facts.map(\.detail)),
                            PostgresArray.literal(facts.map { $0.venueTime?.description }),
                        ])
                }
                return transition.events
            }
        }
    }

    public func events(_ query: EventQuery) async throws(AggError) -> [MarketEvent] {
        let parameters: [String?] = [
            query.since.description, query.until?.description,
            PostgresArray.literal(query.kinds.map(\.rawValue).sorted()), PostgresArray.literal(query.venues),
            PostgresArray.literal(query.symbols),
        ]
        let events = try await perform { connection throws(PostgresError) -> [MarketEvent] in
            let rows = try connection.query(
                """
                SELECT venue, kind, symbol, network, subject, detail,
                    floor(extract(epoch FROM first_observed) * 1000)::int8,
                    floor(extract(epoch FROM venue_time) * 1000)::int8
                FROM market_event
                WHERE first_observed >= $1::timestamptz AND ($2::timestamptz IS NULL OR first_observed < $2::timestamptz)
                    AND (cardinality($3::text[]) = 0 OR kind = ANY ($3::text[]))
                    AND (cardinality($4::text[]) = 0 OR venue = ANY ($4::text[]))
                    AND (cardinality($5::text[]) = 0 OR symbol = ANY ($5::text[]))
                ORDER BY first_observed, id
                """, parameters)
            return try rows.values.map { row throws(PostgresError) in
                var reader = RowReader(row)
                let venue = try reader.text()
                let kindText = try reader.text()
                guard let kind = MarketEventKind(rawValue: kindText) else {
                    throw PostgresError(.data, "a stored market event has the unknown kind '\(kindText.prefix(30))'")
                }
                return MarketEvent(
                    venue: venue, kind: kind, symbol: try reader.optionalText(), network: try reader.optionalText(),
                    subject: try reader.text(), detail: try reader.text(), firstObserved: try reader.timestamp(),
                    venueTime: try reader.optionalTimestamp())
            }
        }
        return MarketEventOrder.sorted(events)
    }

    /// The source's stored facts, or `nil` when it was never observed.
    /// The source's stored facts (`nil` when it was never observed), or `.outdated` when the
    /// database holds a later observation of it than `observation`.
    private static func state(of observation: EventObservation, _ connection: PostgresConnection)
        throws(PostgresError) -> StoredEventState
    {
        let (venue, source) = (observation.venue, observation.source)
        let seen = try connection.query(
            """
            SELECT floor(extract(epoch FROM observed_at) * 1000)::int8 FROM event_source
            WHERE venue = $1 AND source = $2
            """, [venue, source])
        guard let row = seen.values.first else { return .current(nil) }
        var stored = RowReader(row)
        guard observation.observedAt >= (try stored.timestamp()) else { return .outdated }
        let rows = try connection.query(
            """
            SELECT condition, symbol, network, subject, detail, floor(extract(epoch FROM venue_time) * 1000)::int8
            FROM event_state WHERE venue = $1 AND source = $2 ORDER BY fact_key
            """, [venue, source])
        let facts = try rows.values.map { row throws(PostgresError) in
            var reader = RowReader(row)
            let conditionText = try reader.text()
            guard let condition = EventFact.Condition(rawValue: conditionText) else {
                throw PostgresError(
                    .data, "a stored event fact has the unknown condition '\(conditionText.prefix(30))'")
            }
            return EventFact(
                condition: condition, symbol: try reader.optionalText(), network: try reader.optionalText(),
                subject: try reader.text(), detail: try reader.text(), venueTime: try reader.optionalTimestamp())
        }
        return .current(facts)
    }

    private static func insert(_ events: [MarketEvent], source: String, _ connection: PostgresConnection)
        throws(PostgresError)
    {
        guard !events.isEmpty else { return }
        try connection.query(
            """
            INSERT INTO market_event
                (venue, source, kind, symbol, network, subject, detail, first_observed, venue_time)
            SELECT a, b, c, d, f, g, h, i, j
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::timestamptz[], $9::timestamptz[]) WITH ORDINALITY AS e(a, b, c, d, f, g, h, i, j, n)
            ORDER BY n
            """,
            [
                PostgresArray.literal(events.map(\.venue)), PostgresArray.literal(events.map { _ in source }),
                PostgresArray.literal(events.map(\.kind.rawValue)), PostgresArray.literal(events.map(\.symbol)),
                PostgresArray.literal(events.map(\.network)), PostgresArray.literal(events.map(\.subject)),
                PostgresArray.literal(events.map(\.detail)),
                PostgresArray.literal(events.map { $0.firstObserved.description }),
                PostgresArray.literal(events.map { $0.venueTime?.description }),
            ])
    }
}
