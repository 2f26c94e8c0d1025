import AggCore
import Testing

@testable import AggStore

/// The quote cache keeps each quote's change basis (schema migration 4): a stale quote says
/// what its change was measured against when it was fetched, or that this is unknown.
@Suite("Quote cache: change basis")
struct QuoteCacheBasisTests {
    static let btc = Market(base: "BTC", quote: "KRW")

    static func quote(basis: ChangeBasis?) throws -> Quote {
        Quote(
            exchange: "bithumb", market: btc, last: try decimal("80630000"), change: try decimal("631000"),
            changePercent: try decimal("0.79"), changeBasis: basis,
            timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_027))
    }

    @Test(
        "each basis comes back as cached, none included, through the replace and the upsert",
        arguments: [ChangeBasis.rolling24h, .sinceUTCMidnight, nil])
    func roundTrip(basis: ChangeBasis?) async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try store.cacheQuotes(
                [try Self.quote(basis: .rolling24h)], fetchedAt: Timestamp(millisecondsSince1970: 2_000))
            // A batch older than the cache's newest row of the venue goes through the upsert.
            try store.cacheQuotes(
                [
                    try Self.quote(basis: .rolling24h),
                    Quote(exchange: "bithumb", market: Market(base: "ETH", quote: "KRW"), last: 1),
                ],
                fetchedAt: Timestamp(millisecondsSince1970: 1_000))
            try store.cacheQuotes([try Self.quote(basis: basis)], fetchedAt: Timestamp(millisecondsSince1970: 3_000))
            let cached = try #require(try store.cachedQuote(exchange: "bithumb", market: Self.btc))
            #expect(cached.quote.changeBasis == basis)
            #expect(cached.quote == (try Self.quote(basis: basis)))
        }
    }

    @Test("a quote cached before the basis was kept (schema version 3) comes back with no basis, not a guess")
    func fromVersion3() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            do {
                let connection = try SQLiteConnection.open(path: path)
                for migration in Schema.migrations.prefix(3) { try connection.execute(migration.sql) }
                try connection.execute(
                    """
                    INSERT INTO quote_cache (exchange, base, quote, last, change, change_percent, timestamp, fetched_at)
                        VALUES ('bithumb', 'BTC', 'KRW', '80630000', '631000', '0.79', 1723104735027, 1000);
                    PRAGMA user_version = 3;
                    """)
            }
            let store = try Store.open(path: path)
            #expect(try store.integer("PRAGMA user_version") == Int64(Store.schemaVersion))
            let cached = try #require(try store.cachedQuote(exchange: "bithumb", market: Self.btc))
            #expect(cached.quote.change == (try decimal("631000")))
            #expect(cached.quote.changeBasis == nil)
        }
    }
}
