import AggCore
import AggTestKit
import Foundation
import Testing

@testable import AggPostgres

/// Issue 20, "agg record and PostgreSQL": leases and retention by the database's clock, rows
/// counted as written, reading with a role that may only SELECT, and what NUMERIC keeps.
@Suite(
    "PostgreSQL: the database's clock, read-only roles, rows written",
    .enabled(if: TestDatabase.available, TestDatabase.skipNotice))
struct PostgresClockAndAccessTests {
    private static let btc = Market(base: "BTC", quote: "KRW")

    private static func price(_ venue: String, _ milliseconds: Int64, _ last: Decimal = 1) -> PricePoint {
        PricePoint(time: Timestamp(millisecondsSince1970: milliseconds), exchange: venue, market: btc, last: last)
    }

    /// The server's `now()` in milliseconds.
    private static func serverNow(_ store: PostgresHistoryStore) async throws -> Int64 {
        let text = try await TestDatabase.column(store, "SELECT floor(extract(epoch FROM now()) * 1000)::int8")
        return try #require(text.first.flatMap { $0 }.flatMap { Int64($0) })
    }

    @Test(
        "a recorder 60 s fast, once killed, holds its venue for the lease length by the server's clock, not 60 s more")
    func leaseExpiryByDatabaseClock() async throws {
        let url = try await TestDatabase.freshSchema()
        let fast = try await PostgresHistoryStore.open(url)
        let other = try await PostgresHistoryStore.open(url)
        let now = try await Self.serverNow(fast)
        // Its clock says now + 60 s; its lease lasts 1 s.
        let claimed = try await fast.claimVenues(
            ["upbit"], holder: "fast", now: Timestamp(millisecondsSince1970: now + 60_000),
            expiry: Timestamp(millisecondsSince1970: now + 61_000))
        #expect(claimed == ["upbit"])
        let left = try await TestDatabase.column(
            fast, "SELECT (extract(epoch FROM expiry - now()) <= 1)::text FROM venue_lease")
        #expect(left == ["true"])
        // While it holds the lease (renewed for 30 s, so that a loaded machine cannot let it
        // lapse here), its points, stamped by its fast clock, are written.
        #expect(
            try await fast.claimVenues(
                ["upbit"], holder: "fast", now: Timestamp(millisecondsSince1970: now + 60_000),
                expiry: Timestamp(millisecondsSince1970: now + 90_000)) == ["upbit"])
        let written = try await fast.recordCountingRows(
            RecordedTick(
                time: Timestamp(millisecondsSince1970: now + 60_000), prices: [Self.price("upbit", now + 60_000)]))
        #expect(written == RecordedRows(prices: 1, rates: 0, premiums: 0))
        // Its last renewal, for 1 s again, then it is killed: another recorder, clock right, takes the venue once the server's clock passes
        // the lease (waiting longer on a loaded machine changes nothing).
        #expect(
            try await fast.claimVenues(
                ["upbit"], holder: "fast", now: Timestamp(millisecondsSince1970: now + 61_000),
                expiry: Timestamp(millisecondsSince1970: now + 62_000)) == ["upbit"])
        try await Task.sleep(for: .milliseconds(1_200))
        let now2 = try await Self.serverNow(other)
        let taken = try await other.claimVenues(
            ["upbit"], holder: "other", now: Timestamp(millisecondsSince1970: now2),
            expiry: Timestamp(millisecondsSince1970: now2 + 30_000))
        #expect(taken == ["upbit"])
        // The fast recorder's late tick writes nothing, and says so: 0 rows.
        let late = try await fast.recordCountingRows(
            RecordedTick(
                time: Timestamp(millisecondsSince1970: now + 62_000), prices: [Self.price("upbit", now + 62_000)]))
        #expect(late == RecordedRows(prices: 0, rates: 0, premiums: 0))
    }

    @Test("retention by the server's now(): a recorder 3 days fast with 2 days' retention drops nothing recent")
    func retentionByDatabaseClock() async throws {
        let url = try await TestDatabase.freshSchema()
        let store = try await PostgresHistoryStore.open(url)
        let now = try await Self.serverNow(store)
        let day: Int64 = 86_400_000
        let recent = Self.price("upbit", now - 3_600_000)
        let old = Self.price("bithumb", now - 3 * day)
        try await store.record(RecordedTick(time: recent.time, prices: [recent]))
        try await store.record(RecordedTick(time: old.time, prices: [old]))
        let fastClock = Timestamp(millisecondsSince1970: now + 3 * day)
        #expect(try await store.prune(retainingSeconds: 2 * 86_400, now: fastClock, limit: 1_000) == 1)
        #expect(try await store.prune(retainingSeconds: 2 * 86_400, now: fastClock, limit: 1_000) == 0)
        #expect(
            try await store.prices(HistoryQuery(symbol: "BTC", since: Timestamp(millisecondsSince1970: 0))) == [recent])

        // The recorder's own clock, as before, would have dropped today's rows too.
        let caller = try await PostgresHistoryStore.open(url, clock: .caller)
        #expect(try await caller.prune(retainingSeconds: 2 * 86_400, now: fastClock, limit: 1_000) == 1)
    }

    @Test("a role that may only SELECT reads the history: opening for reading runs no DDL")
    func readOnlyRole() async throws {
        let url = try await TestDatabase.freshSchema()
        let writer = try await PostgresHistoryStore.open(url)
        let point = Self.price("upbit", 1_796_083_200_000, Decimal(sign: .plus, exponent: -2, significand: 5_841_307))
        try await writer.record(RecordedTick(time: point.time, prices: [point]))
        let schema = try #require(url.text.split(separator: "search_path%3D").last.map(String.init))
        let role = "ro_" + UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(12)
        try await writer.perform { connection throws(PostgresError) in
            try connection.executeScript(
                """
                CREATE ROLE \(role) LOGIN;
                GRANT USAGE ON SCHEMA \(schema) TO \(role);
                GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(role)
                """)
        }
        let readOnly = try PostgresURL(url.text.replacing("//postgres@", with: "//\(role)@"))
        // Migrating needs CREATE: the role may not.
        await #expect(throws: AggError.self) { _ = try await PostgresHistoryStore.open(readOnly) }
        let reader = try await PostgresHistoryStore.open(readOnly, forReading: true)
        #expect(
            try await reader.prices(HistoryQuery(symbol: "BTC", since: Timestamp(millisecondsSince1970: 0))) == [point])

        // The agg binary: agg history with that role exits 0.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("agg-ro-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try await AggBinary.run(
            ["history", "BTC", "--store", readOnly.text, "--since", "2020-01-01", "-f", "json"],
            environment: ["AGG_HOME": home])
        #expect(run.status == 0)
        #expect(run.error == "")
    }

    @Test("reading a database without agg's tables is one store error, and creates nothing")
    func readingAnEmptyDatabase() async throws {
        let url = try await TestDatabase.freshSchema()
        await #expect(
            throws: AggError.store(
                "PostgreSQL \(url.description): the database holds no agg history (agg record creates its tables)")
        ) { _ = try await PostgresHistoryStore.open(url, forReading: true) }
        let writer = try await PostgresHistoryStore.open(url)
        #expect(try await writer.prices(HistoryQuery(symbol: "BTC", since: Timestamp(millisecondsSince1970: 0))) == [])
    }

    /// Issue 20, rule 3: unconstrained NUMERIC keeps the scale of the text it is given
    /// (`58413.07000000`), but agg's decimals carry no scale (`DecimalText.parse` folds trailing
    /// zeros into the exponent) and are sent as their shortest text, so the store gets, keeps and
    /// gives back `58413.07`, the same number.
    @Test("NUMERIC keeps scale; agg stores the value, 58413.07 for 58413.07000000")
    func numericScale() async throws {
        let store = try await TestDatabase.freshStore()
        let parsed = try #require(Decimal(string: "58413.07000000"))
        try await store.record(
            RecordedTick(
                time: Timestamp(millisecondsSince1970: 1_796_083_200_000),
                prices: [
                    Self.price("upbit", 1_796_083_200_000, parsed)
                ]))
        #expect(try await TestDatabase.column(store, "SELECT last::text FROM price") == ["58413.07"])
        #expect(try await TestDatabase.column(store, "SELECT '58413.07000000'::numeric::text") == ["58413.07000000"])
    }
}
