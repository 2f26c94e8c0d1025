import AggCore
import Foundation
import Testing

@testable import AggStore

/// A recorded price keeps its quote's two times (the venue's, agg's receive time), and a
/// database made before agg kept them is migrated in place: its rows read back with no age.
@Suite("History store: ages")
struct HistoryAgeStoreTests {
    static let btc = Market(base: "BTC", quote: "KRW")
    static func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    /// The migrations before the one that adds the price times (whatever is appended after it).
    static var migrationsBeforeAges: [Schema.Migration] {
        Array(Schema.migrations.prefix { !$0.sql.contains("ADD COLUMN venue_time") })
    }

    @Test("the times come back to the millisecond, each absent one as nil, and the age is tick time less venue time")
    func roundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let tick = RecordedTick(
                time: Self.at(1_800_000_010_000),
                prices: [
                    PricePoint(
                        time: Self.at(1_800_000_010_000), exchange: "binance", market: Self.btc,
                        last: try decimal("80630000.5"), venueTime: Self.at(1_800_000_008_766),
                        receivedAt: Self.at(1_800_000_009_001)),
                    PricePoint(
                        time: Self.at(1_800_000_010_000), exchange: "korbit", market: Self.btc,
                        last: try decimal("80630001"), receivedAt: Self.at(1_800_000_009_955)),
                    PricePoint(
                        time: Self.at(1_800_000_010_000), exchange: "upbit", market: Self.btc,
                        last: try decimal("80630002")),
                ])
            try await store.record(tick)
            let prices = try await store.prices(HistoryQuery(symbol: "BTC", since: Self.at(0)))
            #expect(prices == tick.prices)
            #expect(prices.map { $0.venueTime?.millisecondsSince1970 } == [1_800_000_008_766, nil, nil])
            #expect(prices.map { $0.receivedAt?.millisecondsSince1970 } == [1_800_000_009_001, 1_800_000_009_955, nil])
            #expect(
                prices.map(\.age) == [
                    QuoteAge(milliseconds: 1_234, basis: .venueTime), QuoteAge(milliseconds: 45, basis: .receivedAt),
                    nil,
                ])
        }
    }

    @Test("a database made by the schema before ages is migrated: old rows keep their values and have no times")
    func migratesAnOldDatabase() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let old = Self.migrationsBeforeAges
            #expect(old.count < Schema.migrations.count)
            do {
                let connection = try SQLiteConnection.open(path: path)
                for migration in old { try connection.execute(migration.sql) }
                try connection.execute("PRAGMA user_version = \(old.count)")
                try connection.execute(
                    """
                    INSERT INTO price_point (time, exchange, base, quote, last, base_volume)
                    VALUES (1800000000000, 'upbit', 'BTC', 'KRW', '80630000.5', '12.5')
                    """)
            }
            let store = try Store.open(path: path)
            #expect(try store.integer("PRAGMA user_version") == Int64(Schema.migrations.count))
            let columns = try store.withConnection("inspect") { connection throws(SQLiteError) in
                try connection.query("SELECT name FROM pragma_table_info('price_point') ORDER BY cid") { row in
                    row.text(at: 0) ?? ""
                }
            }
            #expect(
                columns == ["time", "exchange", "base", "quote", "last", "base_volume", "venue_time", "received_at"])
            try await store.record(
                RecordedTick(
                    time: Self.at(1_800_000_010_000),
                    prices: [
                        PricePoint(
                            time: Self.at(1_800_000_010_000), exchange: "upbit", market: Self.btc,
                            last: try decimal("80640000"), venueTime: Self.at(1_800_000_009_500),
                            receivedAt: Self.at(1_800_000_009_700))
                    ]))
            let prices = try await store.prices(HistoryQuery(symbol: "BTC", since: Self.at(0)))
            #expect(
                prices == [
                    PricePoint(
                        time: Self.at(1_800_000_000_000), exchange: "upbit", market: Self.btc,
                        last: try decimal("80630000.5"), baseVolume: try decimal("12.5")),
                    PricePoint(
                        time: Self.at(1_800_000_010_000), exchange: "upbit", market: Self.btc,
                        last: try decimal("80640000"), venueTime: Self.at(1_800_000_009_500),
                        receivedAt: Self.at(1_800_000_009_700)),
                ])
            #expect(prices.map(\.age) == [nil, QuoteAge(milliseconds: 500, basis: .venueTime)])
            #expect(try store.integrityCheck() == "ok")
        }
    }
}
