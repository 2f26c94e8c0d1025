import AggCore
import FoundationEssentials
import Testing

@testable import AggPostgres

private let t0: Int64 = 1_796_083_200_000
private func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }
private func btc(_ venue: String, _ milliseconds: Int64, _ last: Decimal) -> PricePoint {
    PricePoint(time: at(milliseconds), exchange: venue, market: Market(base: "BTC", quote: "KRW"), last: last)
}

@Suite("PostgreSQL venue leases", .enabled(if: TestDatabase.available, TestDatabase.skipNotice))
struct PostgresLeaseTests {
    @Test("three holders claiming overlapping venues at once: every venue has exactly one holder, who was told so")
    func threeHoldersCompete() async throws {
        let url = try await TestDatabase.freshSchema()
        let wishes = [
            "recorder-a": ["bithumb", "upbit", "coinone", "korbit"],
            "recorder-b": ["coinone", "korbit", "binance", "okx"],
            "recorder-c": ["bithumb", "okx", "kraken"],
        ]
        var stores: [String: PostgresHistoryStore] = [:]
        for holder in wishes.keys { stores[holder] = try await PostgresHistoryStore.open(url, clock: .caller) }
        let frozen = stores
        var first: [String: Set<String>] = [:]
        for round in 0..<5 {
            let now = t0 + Int64(round) * 1000
            let granted = try await withThrowingTaskGroup(of: Grant.self) { group in
                for (holder, venues) in wishes {
                    group.addTask {
                        let store = try #require(frozen[holder])
                        let held = try await store.claimVenues(
                            venues, holder: holder, now: at(now), expiry: at(now + 10_000))
                        return Grant(holder: holder, venues: held)
                    }
                }
                return try await group.reduce(into: [Grant]()) { $0.append($1) }
            }
            let all = granted.flatMap(\.venues)
            #expect(all.count == Set(all).count, "a venue was granted twice in round \(round)")
            #expect(Set(all) == ["bithumb", "upbit", "coinone", "korbit", "binance", "okx", "kraken"])
            let store = try #require(frozen["recorder-a"])
            let table = try await TestDatabase.column(
                store, "SELECT venue || '=' || holder FROM venue_lease ORDER BY venue")
            let told = granted.flatMap { grant in grant.venues.map { "\($0)=\(grant.holder)" } }.sorted()
            #expect(table == told.map { Optional($0) })
            // Renewals keep what each holder had: no venue changes hands while leases are live.
            let byHolder = Dictionary(uniqueKeysWithValues: granted.map { ($0.holder, $0.venues) })
            if round == 0 { first = byHolder } else { #expect(byHolder == first) }
        }
    }

    /// Two stores on one fresh schema, as two recorders have them; the first, holder "a", has
    /// claimed upbit and bithumb until t0 + 10 s.
    struct TwoRecorders {
        var first: PostgresHistoryStore
        var second: PostgresHistoryStore

        static func open() async throws -> TwoRecorders {
            let url = try await TestDatabase.freshSchema()
            let stores = TwoRecorders(
                first: try await PostgresHistoryStore.open(url, clock: .caller),
                second: try await PostgresHistoryStore.open(url, clock: .caller))
            #expect(
                try await stores.first.claimVenues(
                    ["upbit", "bithumb"], holder: "a", now: at(t0), expiry: at(t0 + 10_000)) == ["upbit", "bithumb"])
            return stores
        }
    }

    struct Grant: Sendable {
        var holder: String
        var venues: Set<String>
    }

    @Test("a live lease is kept by its holder; once it expires another holder takes it over")
    func takeoverAfterExpiry() async throws {
        let url = try await TestDatabase.freshSchema()
        let first = try await PostgresHistoryStore.open(url, clock: .caller)
        let second = try await PostgresHistoryStore.open(url, clock: .caller)
        #expect(try await first.claimVenues(["upbit"], holder: "a", now: at(t0), expiry: at(t0 + 10_000)) == ["upbit"])
        #expect(
            try await second.claimVenues(["upbit"], holder: "b", now: at(t0 + 5_000), expiry: at(t0 + 15_000)) == [])
        #expect(
            try await first.claimVenues(["upbit"], holder: "a", now: at(t0 + 5_000), expiry: at(t0 + 15_000)) == [
                "upbit"
            ])
        // "a" stops renewing: one millisecond before its expiry the venue is still its own...
        #expect(
            try await second.claimVenues(["upbit"], holder: "b", now: at(t0 + 14_999), expiry: at(t0 + 25_000)) == [])
        // ...and at the expiry "b" takes it.
        #expect(
            try await second.claimVenues(["upbit"], holder: "b", now: at(t0 + 15_000), expiry: at(t0 + 25_000)) == [
                "upbit"
            ])
        #expect(
            try await first.claimVenues(["upbit"], holder: "a", now: at(t0 + 16_000), expiry: at(t0 + 26_000)) == [])
        let table = try await TestDatabase.column(first, "SELECT holder || ' ' || expiry::text FROM venue_lease")
        #expect(table == ["b 2026-12-01 00:00:25+00"])
    }

    @Test("a released lease is free at once, and only the releasing holder's leases go")
    func releaseHandsVenuesOnAtOnce() async throws {
        let stores = try await TwoRecorders.open()
        let (first, second) = (stores.first, stores.second)
        #expect(try await second.claimVenues(["okx"], holder: "b", now: at(t0), expiry: at(t0 + 10_000)) == ["okx"])
        try await first.releaseVenues(holder: "a")
        // Long before "a"'s leases would have expired, "b" gets its venues.
        #expect(
            try await second.claimVenues(
                ["upbit", "bithumb", "okx"], holder: "b", now: at(t0 + 1), expiry: at(t0 + 10_001))
                == ["upbit", "bithumb", "okx"])
        try await first.releaseVenues(holder: "a")
        let table = try await TestDatabase.column(
            first, "SELECT venue || '=' || holder FROM venue_lease ORDER BY venue")
        #expect(table == ["bithumb=b", "okx=b", "upbit=b"])
    }

    @Test("a recorder that lost its lease writes nothing late: no venue is recorded twice")
    func lateWriteAfterLosingTheLease() async throws {
        let stores = try await TwoRecorders.open()
        let (first, second) = (stores.first, stores.second)
        try await first.record(
            RecordedTick(time: at(t0 + 1_000), prices: [btc("upbit", t0 + 1_000, 1), btc("bithumb", t0 + 1_000, 1)]))
        // "a" stalls; "b" takes upbit over at the expiry and records it; "a" keeps bithumb.
        #expect(
            try await second.claimVenues(["upbit"], holder: "b", now: at(t0 + 10_000), expiry: at(t0 + 20_000)) == [
                "upbit"
            ])
        #expect(
            try await first.claimVenues(["bithumb"], holder: "a", now: at(t0 + 10_000), expiry: at(t0 + 20_000)) == [
                "bithumb"
            ])
        try await second.record(RecordedTick(time: at(t0 + 10_500), prices: [btc("upbit", t0 + 10_500, 2)]))
        // "a" comes back with the tick it fetched before the takeover, and one after it: only
        // bithumb, still its own, is written.
        try await first.record(
            RecordedTick(time: at(t0 + 9_000), prices: [btc("upbit", t0 + 9_000, 1), btc("bithumb", t0 + 9_000, 1)]))
        try await first.record(
            RecordedTick(time: at(t0 + 11_000), prices: [btc("upbit", t0 + 11_000, 1), btc("bithumb", t0 + 11_000, 1)]))
        // A point past the lease's expiry is not written either, even by its last holder.
        try await first.record(RecordedTick(time: at(t0 + 20_000), prices: [btc("bithumb", t0 + 20_000, 1)]))
        let upbit = try await first.prices(HistoryQuery(symbol: "BTC", exchanges: ["upbit"], since: at(0)))
        #expect(upbit == [btc("upbit", t0 + 1_000, 1), btc("upbit", t0 + 10_500, 2)])
        let bithumb = try await first.prices(HistoryQuery(symbol: "BTC", exchanges: ["bithumb"], since: at(0)))
        #expect(bithumb.map(\.time.millisecondsSince1970) == [t0 + 1_000, t0 + 9_000, t0 + 11_000])
    }

    @Test("a store that never claimed writes the venues nobody leases, and none that are leased")
    func storeWithoutHolder() async throws {
        let url = try await TestDatabase.freshSchema()
        let leasing = try await PostgresHistoryStore.open(url, clock: .caller)
        let plain = try await PostgresHistoryStore.open(url, clock: .caller)
        _ = try await leasing.claimVenues(["upbit"], holder: "a", now: at(t0), expiry: at(t0 + 10_000))
        try await plain.record(RecordedTick(time: at(t0), prices: [btc("upbit", t0, 1), btc("kraken", t0, 1)]))
        let written = try await plain.prices(HistoryQuery(symbol: "BTC", since: at(0)))
        #expect(written.map(\.exchange) == ["kraken"])
    }
}
