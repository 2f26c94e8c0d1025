import AggCore
import AggJSON
import FoundationEssentials
import Testing

@testable import AggPostgres

private let btc = Market(base: "BTC", quote: "KRW")
/// 2026-12-01T00:00:00Z.
private let dayStart: Int64 = 1_796_083_200_000
private let day: Int64 = 86_400_000

private func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }
private func decimal(_ text: String) throws -> Decimal { try DecimalText.parse(text) }

@Suite("PostgreSQL history store", .enabled(if: TestDatabase.available, TestDatabase.skipNotice))
struct PostgresHistoryStoreTests {
    @Test("migrations run once: a second run applies nothing, and the versions table holds each version once")
    func migrationsAreIdempotent() async throws {
        let url = try await TestDatabase.freshSchema()
        let store = try await PostgresHistoryStore.open(url)
        let again = try await store.perform { connection throws(PostgresError) in
            try PostgresSchema.migrate(connection)
        }
        #expect(again == 0)
        _ = try await PostgresHistoryStore.open(url)
        let versions = try await TestDatabase.column(store, "SELECT version FROM schema_migrations ORDER BY version")
        #expect(versions == (1...PostgresSchema.migrations.count).map { String($0) })
    }

    @Test("four processes' worth of connections migrating one empty schema at once all succeed, once")
    func concurrentMigrations() async throws {
        let url = try await TestDatabase.freshSchema()
        let opened = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let session = try await PostgresSession.connect(url)
                    return try await session.run { connection throws(PostgresError) in
                        try PostgresSchema.migrate(connection)
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(opened.sorted() == [0, 0, 0, PostgresSchema.migrations.count])
        let store = try await PostgresHistoryStore.open(url)
        let versions = try await TestDatabase.column(store, "SELECT version FROM schema_migrations ORDER BY version")
        #expect(versions == (1...PostgresSchema.migrations.count).map { String($0) })
    }

    @Test("a database at the schema before ages is migrated: old prices read back with no times, new ones with both")
    func agesMigration() async throws {
        let url = try await TestDatabase.freshSchema()
        let before = PostgresSchema.migrations.prefix { !$0.contains("ADD COLUMN venue_time") }
        #expect(before.count < PostgresSchema.migrations.count)
        let session = try await PostgresSession.connect(url)
        try await session.run { connection throws(PostgresError) in
            try connection.executeScript(
                """
                CREATE TABLE schema_migrations (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            for (index, script) in before.enumerated() {
                try connection.executeScript(script)
                try connection.query("INSERT INTO schema_migrations (version) VALUES ($1)", [String(index + 1)])
            }
            try PostgresPartitions.create(days: [PostgresPartitions.day(of: at(dayStart))], connection)
            try connection.query(
                """
                INSERT INTO price (time, exchange, base, quote, last, base_volume)
                VALUES ($1::timestamptz, 'upbit', 'BTC', 'KRW', 80630000.5, 12.5)
                """, [at(dayStart + 5).description])
        }
        let store = try await PostgresHistoryStore.open(url, clock: .caller)
        let fresh = PricePoint(
            time: at(dayStart + 10_000), exchange: "upbit", market: btc, last: try decimal("80640000"),
            venueTime: at(dayStart + 8_766), receivedAt: at(dayStart + 9_001))
        let korbit = PricePoint(
            time: at(dayStart + 10_000), exchange: "korbit", market: btc, last: try decimal("80640001"),
            receivedAt: at(dayStart + 9_955))
        try await store.record(RecordedTick(time: at(dayStart + 10_000), prices: [fresh, korbit]))
        let prices = try await store.prices(HistoryQuery(symbol: "BTC", since: at(dayStart)))
        #expect(
            prices == [
                PricePoint(
                    time: at(dayStart + 5), exchange: "upbit", market: btc, last: try decimal("80630000.5"),
                    baseVolume: try decimal("12.5")),
                korbit, fresh,
            ])
        #expect(
            prices.map(\.age) == [
                nil, QuoteAge(milliseconds: 45, basis: .receivedAt), QuoteAge(milliseconds: 1_234, basis: .venueTime),
            ])
        let versions = try await TestDatabase.column(store, "SELECT version FROM schema_migrations ORDER BY version")
        #expect(versions == (1...PostgresSchema.migrations.count).map { String($0) })
    }

    @Test("prices, premiums and rates come back exactly: decimals digit for digit, times to the millisecond")
    func roundTrip() async throws {
        let store = try await TestDatabase.freshStore()
        let tick = RecordedTick(
            time: at(dayStart + 123),
            prices: [
                PricePoint(time: at(dayStart + 123), exchange: "upbit", market: btc, last: try decimal("0.00000001")),
                PricePoint(
                    time: at(dayStart + 123), exchange: "bithumb", market: btc,
                    last: try decimal("123456789012345678.123456789"), baseVolume: try decimal("1234.5678")),
                PricePoint(
                    time: at(dayStart + 999), exchange: "bithumb", market: Market(base: "BTC", quote: "USDT"),
                    last: try decimal("97123.10")),
                PricePoint(
                    time: at(dayStart + 1), exchange: "upbit", market: Market(base: "ETH", quote: "KRW"),
                    last: try decimal("5000000")),
            ],
            rates: [
                RatePoint(
                    time: at(dayStart + 123), source: "frankfurter", base: "USD", quote: "KRW",
                    rate: try decimal("1392.57"))
            ],
            premiums: [
                PremiumPoint(
                    time: at(dayStart + 123), exchange: "upbit", symbol: "BTC", basis: "usd", fxSource: "frankfurter",
                    percent: try decimal("-0.000123")),
                PremiumPoint(
                    time: at(dayStart + 123), exchange: "bithumb", symbol: "BTC", basis: "usdt",
                    fxSource: "frankfurter",
                    percent: try decimal("2.51")),
            ])
        try await store.record(tick)

        let prices = try await store.prices(HistoryQuery(symbol: "BTC", since: at(dayStart)))
        #expect(
            prices == [
                tick.prices[1], tick.prices[0], tick.prices[2],
            ])
        #expect(
            prices.map { DecimalText.format($0.last) } == ["123456789012345678.123456789", "0.00000001", "97123.1"])
        #expect(prices.map(\.time.millisecondsSince1970) == [dayStart + 123, dayStart + 123, dayStart + 999])

        let premiums = try await store.premiums(HistoryQuery(symbol: "BTC", since: at(dayStart)))
        #expect(premiums == [tick.premiums[1], tick.premiums[0]])
        let rates = try await TestDatabase.column(store, "SELECT rate::text FROM rate")
        #expect(rates == ["1392.57"])
        let types = try await TestDatabase.column(
            store, "SELECT pg_typeof(last)::text || ' ' || pg_typeof(time)::text FROM price LIMIT 1")
        #expect(types == ["numeric timestamp with time zone"])
    }

    @Test("a query's venues, since (inclusive) and until (exclusive) select exactly")
    func queryBounds() async throws {
        let store = try await TestDatabase.freshStore()
        let points = (0..<4).map { (index: Int) -> PricePoint in
            let offset = Int64(index) * 1000
            let venue = index % 2 == 0 ? "upbit" : "bithumb"
            return PricePoint(time: at(dayStart + offset), exchange: venue, market: btc, last: Decimal(index + 1))
        }
        try await store.record(RecordedTick(time: at(dayStart), prices: points))
        let window = try await store.prices(
            HistoryQuery(symbol: "BTC", since: at(dayStart + 1000), until: at(dayStart + 3000)))
        #expect(window == [points[1], points[2]])
        let upbit = try await store.prices(HistoryQuery(symbol: "BTC", exchanges: ["upbit"], since: at(dayStart)))
        #expect(upbit == [points[0], points[2]])
        let none = try await store.prices(HistoryQuery(symbol: "ETH", since: at(dayStart)))
        #expect(none.isEmpty)
    }

    @Test("a tick is one transaction: a point the database refuses leaves nothing of the tick")
    func tickIsAtomic() async throws {
        let store = try await TestDatabase.freshStore()
        let good = PricePoint(time: at(dayStart), exchange: "upbit", market: btc, last: 1)
        let bad = PremiumPoint(
            time: at(dayStart), exchange: "upbit", symbol: "", basis: "usd", fxSource: "ecb", percent: 1)
        await #expect {
            try await store.record(RecordedTick(time: at(dayStart), prices: [good], premiums: [bad]))
        } throws: { error in
            guard case AggError.store(let text) = error else { return false }
            return text.contains("premium_symbol_check") && text.contains("SQLSTATE 23514")
        }
        #expect(try await store.prices(HistoryQuery(symbol: "BTC", since: at(0))).isEmpty)
        let rows = try await TestDatabase.column(store, "SELECT count(*)::text FROM price")
        #expect(rows == ["0"])
        // The same tick without the bad point goes in.
        try await store.record(RecordedTick(time: at(dayStart), prices: [good]))
        #expect(try await store.prices(HistoryQuery(symbol: "BTC", since: at(0))) == [good])
    }

    @Test("a value that is not a number is refused before anything is sent")
    func notANumber() async throws {
        let store = try await TestDatabase.freshStore()
        let point = PricePoint(time: at(dayStart), exchange: "upbit", market: btc, last: Decimal.nan)
        await #expect(throws: AggError.self) {
            try await store.record(RecordedTick(time: at(dayStart), prices: [point]))
        }
    }

    @Test("a tick sent twice is written once")
    func tickSentTwice() async throws {
        let store = try await TestDatabase.freshStore()
        let tick = RecordedTick(
            time: at(dayStart), prices: [PricePoint(time: at(dayStart), exchange: "upbit", market: btc, last: 7)])
        try await store.record(tick)
        try await store.record(tick)
        #expect(try await store.prices(HistoryQuery(symbol: "BTC", since: at(0))).count == 1)
    }

    @Test(
        "each day gets its partitions (and the next day's ahead); prune drops whole days, then deletes the boundary day's rows in batches"
    )
    func partitionsAndPrune() async throws {
        let store = try await TestDatabase.freshStore()
        func price(_ milliseconds: Int64, _ venue: String) -> PricePoint {
            PricePoint(time: at(milliseconds), exchange: venue, market: btc, last: 1)
        }
        // Day 0: 2 prices and 1 rate; day 1: 3 prices and 1 premium; day 2: 3 prices (two before the cutoff).
        try await store.record(
            RecordedTick(
                time: at(dayStart), prices: [price(dayStart, "upbit"), price(dayStart, "bithumb")],
                rates: [RatePoint(time: at(dayStart), source: "ecb", base: "USD", quote: "KRW", rate: 1400)]))
        try await store.record(
            RecordedTick(
                time: at(dayStart + day),
                prices: [
                    price(dayStart + day, "upbit"), price(dayStart + day + 1, "upbit"), price(dayStart + day, "korbit"),
                ],
                premiums: [
                    PremiumPoint(
                        time: at(dayStart + day), exchange: "upbit", symbol: "BTC", basis: "usd", fxSource: "ecb",
                        percent: 2)
                ]))
        try await store.record(
            RecordedTick(
                time: at(dayStart + 2 * day),
                prices: [
                    price(dayStart + 2 * day + 60_000, "upbit"), price(dayStart + 2 * day + 120_000, "upbit"),
                    price(dayStart + 2 * day + 7_200_000, "upbit"),
                ]))
        let partitions = """
            SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent IN ('price'::regclass, 'rate'::regclass, 'premium'::regclass) ORDER BY 1
            """
        #expect(
            try await TestDatabase.column(store, partitions) == [
                "premium_p20261201", "premium_p20261202", "premium_p20261203", "premium_p20261204",
                "price_p20261201", "price_p20261202", "price_p20261203", "price_p20261204",
                "rate_p20261201", "rate_p20261202", "rate_p20261203", "rate_p20261204",
            ])
        let cutoff = at(dayStart + 2 * day + 3_600_000)
        // Days 0 and 1: 2 + 1 rows, then 3 + 1 rows, whatever the limit.
        #expect(try await store.prune(before: cutoff, limit: 1) == 7)
        #expect(
            try await TestDatabase.column(store, partitions) == [
                "premium_p20261203", "premium_p20261204", "price_p20261203", "price_p20261204", "rate_p20261203",
                "rate_p20261204",
            ])
        // Day 2's two rows before the cutoff, one per call.
        #expect(try await store.prune(before: cutoff, limit: 1) == 1)
        #expect(try await store.prune(before: cutoff, limit: 1) == 1)
        #expect(try await store.prune(before: cutoff, limit: 1) == 0)
        let left = try await store.prices(HistoryQuery(symbol: "BTC", since: at(0)))
        #expect(left == [price(dayStart + 2 * day + 7_200_000, "upbit")])
        // A late point for a dropped day makes its partition again.
        try await store.record(RecordedTick(time: at(dayStart), prices: [price(dayStart + 5, "upbit")]))
        #expect(try await store.prices(HistoryQuery(symbol: "BTC", since: at(0))).count == 2)
    }

    @Test("a store whose partitions another process dropped makes them again")
    func partitionDroppedElsewhere() async throws {
        let url = try await TestDatabase.freshSchema()
        let recorder = try await PostgresHistoryStore.open(url)
        let pruner = try await PostgresHistoryStore.open(url)
        let point = PricePoint(time: at(dayStart), exchange: "upbit", market: btc, last: 1)
        try await recorder.record(RecordedTick(time: at(dayStart), prices: [point]))
        #expect(try await pruner.prune(before: at(dayStart + 2 * day), limit: 100) == 1)
        try await recorder.record(RecordedTick(time: at(dayStart), prices: [point]))
        #expect(try await recorder.prices(HistoryQuery(symbol: "BTC", since: at(0))) == [point])
    }

    @Test("alert states round-trip, and saving a rule again replaces it")
    func alertStates() async throws {
        let store = try await TestDatabase.freshStore()
        let fired = AlertState(rule: "premium BTC upbit > 3", active: true, lastFired: at(dayStart + 456))
        let quiet = AlertState(rule: "price \"ETH\" < 1\\2", active: false, lastFired: nil)
        try await store.saveAlertStates([quiet, fired])
        #expect(try await store.alertStates() == [fired, quiet])
        let reset = AlertState(rule: fired.rule, active: false, lastFired: at(dayStart + 456))
        try await store.saveAlertStates([reset])
        #expect(try await store.alertStates() == [reset, quiet])
    }

    @Test("array parameters carry quotes, backslashes, commas and NULLs unchanged")
    func arrayLiterals() async throws {
        let store = try await TestDatabase.freshStore()
        let values: [String?] = ["a\"b", "c\\d", "e,f", "{g}", nil, "NULL", " h ", "한국"]
        #expect(PostgresArray.literal(["a\"b", nil]) == #"{"a\"b",NULL}"#)
        let back = try await TestDatabase.column(
            store, "SELECT v FROM unnest($1::text[]) WITH ORDINALITY AS t(v, n) ORDER BY n",
            [PostgresArray.literal(values)])
        #expect(back == values)
    }

    @Test("a value holding NUL is refused rather than cut short")
    func nulRefused() async throws {
        let store = try await TestDatabase.freshStore()
        await #expect(throws: PostgresError(.data, "a value holds a NUL character, which PostgreSQL text cannot store"))
        {
            try await store.session.run { connection throws(PostgresError) in
                try connection.query("SELECT $1::text", ["a\u{0}b"])
            }
        }
    }

    @Test("a connection the server closed is re-opened, and the call that found it closed runs again")
    func reconnects() async throws {
        let url = try await TestDatabase.freshSchema()
        let store = try await PostgresHistoryStore.open(url)
        let killer = try await PostgresHistoryStore.open(url)
        let before = try await TestDatabase.column(store, "SELECT pg_backend_pid()::text")
        let terminated = try await TestDatabase.column(killer, "SELECT pg_terminate_backend($1::int)::text", before)
        #expect(terminated == ["true"])
        let point = PricePoint(time: at(dayStart), exchange: "upbit", market: btc, last: 1)
        try await store.record(RecordedTick(time: at(dayStart), prices: [point]))
        #expect(try await store.prices(HistoryQuery(symbol: "BTC", since: at(0))) == [point])
        let after = try await TestDatabase.column(store, "SELECT pg_backend_pid()::text")
        #expect(after != before)
    }
}
