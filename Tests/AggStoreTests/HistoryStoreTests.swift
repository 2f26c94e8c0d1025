import AggCore
import Foundation
import Testing

@testable import AggStore

/// The SQLite `HistoryStore`: ticks in and out exactly, one transaction a tick, pruning in
/// batches, venue leases between recorders, alert states.
@Suite("History store")
struct HistoryStoreTests {
    static func time(_ seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    static func tick(_ seconds: Int64, btc: String, eth: String = "3400000") throws -> RecordedTick {
        let time = time(seconds)
        return RecordedTick(
            time: time,
            prices: [
                PricePoint(
                    time: time, exchange: "upbit", market: Market(base: "BTC", quote: "KRW"), last: try decimal(btc),
                    baseVolume: try decimal("1234.56789012")),
                PricePoint(
                    time: time, exchange: "binance", market: Market(base: "BTC", quote: "USDT"),
                    last: try decimal("59012.01")),
                PricePoint(
                    time: time, exchange: "upbit", market: Market(base: "ETH", quote: "KRW"), last: try decimal(eth)),
            ],
            rates: [
                RatePoint(
                    time: time, source: "exchangerate", base: "USD", quote: "KRW", rate: try decimal("1350.003043"))
            ],
            premiums: [
                PremiumPoint(
                    time: time, exchange: "upbit", symbol: "BTC", basis: "usdt", fxSource: "exchangerate",
                    percent: try decimal("-0.12")),
                PremiumPoint(
                    time: time, exchange: "upbit", symbol: "BTC", basis: "usd", fxSource: "exchangerate",
                    percent: try decimal("2.51")),
            ])
    }

    @Test("a tick comes back exactly: decimals, times, order by time then venue, the window and venue filters")
    func roundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try await store.record(try Self.tick(100, btc: "80630000.5"))
            try await store.record(try Self.tick(110, btc: "80640000"))
            try await store.record(try Self.tick(120, btc: "80650000"))

            let prices = try await store.prices(HistoryQuery(symbol: "BTC", since: Self.time(110)))
            #expect(prices.map(\.time) == [Self.time(110), Self.time(110), Self.time(120), Self.time(120)])
            #expect(prices.map(\.exchange) == ["binance", "upbit", "binance", "upbit"])
            #expect(prices[1].last == (try decimal("80640000")))
            #expect(prices[1].market == Market(base: "BTC", quote: "KRW"))
            #expect(prices[1].baseVolume == (try decimal("1234.56789012")))
            #expect(prices[0].baseVolume == nil)

            let first = try await store.prices(
                HistoryQuery(symbol: "BTC", exchanges: ["upbit"], since: Self.time(0), until: Self.time(110)))
            #expect(first == [try Self.tick(100, btc: "80630000.5").prices[0]])

            let premiums = try await store.premiums(HistoryQuery(symbol: "BTC", since: Self.time(120)))
            #expect(premiums == (try Self.tick(120, btc: "80650000").premiums.reversed()))
            #expect(try await store.premiums(HistoryQuery(symbol: "ETH", since: Self.time(0))).isEmpty)

            let rates = try store.rates(base: "USD", quote: "KRW", since: Self.time(0))
            #expect(rates.map(\.rate) == Array(repeating: try decimal("1350.003043"), count: 3))
        }
    }

    @Test("a tick is one transaction: a point that cannot be stored leaves none of the tick behind")
    func atomicTick() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try await store.record(try Self.tick(100, btc: "80630000"))
            var broken = try Self.tick(110, btc: "80640000")
            broken.premiums.append(
                PremiumPoint(
                    time: Self.time(110), exchange: "bithumb", symbol: "BTC", basis: "usd", fxSource: "exchangerate",
                    percent: .nan))
            await #expect(throws: AggError.self) { try await store.record(broken) }
            #expect(try store.integer("SELECT count(*) FROM price_point") == 3)
            #expect(try store.integer("SELECT count(*) FROM rate_point") == 1)
            #expect(try store.integer("SELECT count(*) FROM premium_point") == 2)
            #expect(try store.integer("SELECT max(time) FROM price_point") == 100_000)
        }
    }

    @Test("prune deletes at most the limit each call, oldest first, across prices, rates and premiums")
    func pruneBatches() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            // Six ticks of 6 rows each (3 prices, 1 rate, 2 premiums); four before the cutoff.
            for second in stride(from: Int64(100), through: 150, by: 10) {
                try await store.record(try Self.tick(second, btc: "80630000"))
            }
            var batches: [Int] = []
            while true {
                let deleted = try await store.prune(before: Self.time(140), limit: 10)
                batches.append(deleted)
                if deleted == 0 { break }
            }
            #expect(batches == [10, 10, 4, 0])
            #expect(try store.integer("SELECT count(*) FROM price_point") == 6)
            #expect(try store.integer("SELECT min(time) FROM price_point") == 140_000)
            #expect(try store.integer("SELECT min(time) FROM rate_point") == 140_000)
            #expect(try store.integer("SELECT count(*) FROM premium_point") == 4)
            #expect(try await store.prune(before: Self.time(140), limit: 0) == 0)
        }
    }

    @Test("leases: a venue held by a live recorder is left to it, renewed by it, taken over once expired")
    func leases() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let first = try Store.open(path: path)
            let second = try Store.open(path: path)
            let all = ["bithumb", "upbit", "binance"]
            #expect(
                try await first.claimVenues(
                    ["bithumb", "upbit"], holder: "a:1", now: Self.time(0), expiry: Self.time(30))
                    == ["bithumb", "upbit"])
            #expect(
                try await second.claimVenues(all, holder: "b:2", now: Self.time(10), expiry: Self.time(40)) == [
                    "binance"
                ])
            // The holder renews before expiry; the other still gets nothing of it.
            #expect(
                try await first.claimVenues(
                    ["bithumb", "upbit"], holder: "a:1", now: Self.time(20), expiry: Self.time(50))
                    == ["bithumb", "upbit"])
            #expect(
                try await second.claimVenues(all, holder: "b:2", now: Self.time(49), expiry: Self.time(79)) == [
                    "binance"
                ])
            // The first recorder stopped renewing: at its expiry the second takes over.
            #expect(
                try await second.claimVenues(all, holder: "b:2", now: Self.time(50), expiry: Self.time(80)) == Set(all))
            #expect(try await first.claimVenues(all, holder: "a:1", now: Self.time(51), expiry: Self.time(81)).isEmpty)
            // A recorder that stops cleanly hands its venues on at once.
            try await second.releaseVenues(holder: "b:2")
            #expect(
                try await first.claimVenues(all, holder: "a:1", now: Self.time(52), expiry: Self.time(82)) == Set(all))
            #expect(try first.integer("SELECT count(*) FROM venue_lease") == 3)
        }
    }

    @Test("alert states are stored and replaced by rule")
    func alertStates() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try await store.saveAlertStates([
                AlertState(rule: "upbit:BTC premium > 3%", active: true, lastFired: Self.time(100)),
                AlertState(rule: "ETH last < 3000000", active: false, lastFired: nil),
            ])
            try await store.saveAlertStates([
                AlertState(rule: "upbit:BTC premium > 3%", active: false, lastFired: Self.time(100))
            ])
            #expect(
                try await store.alertStates() == [
                    AlertState(rule: "ETH last < 3000000", active: false, lastFired: nil),
                    AlertState(rule: "upbit:BTC premium > 3%", active: false, lastFired: Self.time(100)),
                ])
        }
    }

    @Test("a write waits for another process's lock off the thread, then goes through")
    func waitsForLock() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let store = try Store.open(path: path)
            let writer = try WriteLockTests.Writer(path: path)
            let started = ContinuousClock.now
            async let recorded: Void = store.record(try Self.tick(100, btc: "80630000"))
            try await Task.sleep(for: .milliseconds(300))
            try writer.release()
            try await recorded
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(try store.integer("SELECT count(*) FROM price_point") == 3)
        }
    }
}
