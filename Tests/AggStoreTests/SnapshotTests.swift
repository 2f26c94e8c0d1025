import AggCore
import Foundation
import Testing

@testable import AggStore

@Suite("Rate snapshots")
struct SnapshotTests {
    @Test("a table round-trips with every field")
    func roundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let table = try rateTable(
                asOfSeconds: 1_723_075_201, rates: ["KRW": "1350.003043", "JPY": "146.55", "USD": "1"],
                nextUpdateSeconds: 1_723_161_601
            )
            #expect(try store.saveSnapshot(table))
            #expect(try store.latestSnapshot(base: "USD") == table)
            let withoutNext = try rateTable(base: "EUR", asOfSeconds: 5)
            try store.saveSnapshot(withoutNext)
            #expect(try store.latestSnapshot(base: "EUR") == withoutNext)
            #expect(try store.latestSnapshot(base: "GBP") == nil)
            #expect(try store.snapshotCount(base: "GBP") == 0)
        }
    }

    /// Rates of every shape a source sends, up to 38 significant digits, within the plausible
    /// range (1e-12 to 1e12; rates outside it are refused, see `implausibleNotStored`).
    static let exactTexts = [
        "1350.003043", "0.000712345678901234", "1", "80630000", "0.000000000001", "1000000000000",
        "123456789012.34567890123456789012345678", "0.0000000000012345678901234567890123456789",
    ]

    @Test("rates round-trip exactly", arguments: exactTexts)
    func exactDecimal(_ text: String) async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try store.saveSnapshot(try rateTable(asOfSeconds: 1, rates: ["XYZ": text]))
            let rate = try #require(try store.latestSnapshot(base: "USD")?.rates["XYZ"])
            #expect(rate == (try decimal(text)))
            #expect(rate.description == text)
        }
    }

    @Test("a snapshot with the same base and time replaces the stored one, rates and next update included")
    func sameTimeReplaces() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let first = try rateTable(asOfSeconds: 100, rates: ["KRW": "1300", "EUR": "0.9"], nextUpdateSeconds: 200)
            #expect(try store.saveSnapshot(first))
            let corrected = try rateTable(
                asOfSeconds: 100, rates: ["KRW": "1301", "JPY": "146"], nextUpdateSeconds: 300)
            #expect(try store.saveSnapshot(corrected) == false)
            #expect(try store.snapshotCount(base: "USD") == 1)
            #expect(try store.latestSnapshot(base: "USD") == corrected)
            #expect(try store.integer("SELECT count(*) FROM rate") == 2)
            // The same time under another base is a different snapshot.
            #expect(try store.saveSnapshot(try rateTable(base: "EUR", asOfSeconds: 100)))
            #expect(try store.latestSnapshot(base: "USD") == corrected)
        }
    }

    @Test("only the newest two are kept, and the dropped one's rates go with it")
    func retention() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let oldest = try rateTable(asOfSeconds: 100, rates: ["KRW": "1300", "JPY": "140"])
            let middle = try rateTable(asOfSeconds: 200, rates: ["KRW": "1310"])
            let newest = try rateTable(asOfSeconds: 300, rates: ["KRW": "1320"])
            let other = try rateTable(base: "EUR", asOfSeconds: 50, rates: ["KRW": "1450"])
            try store.saveSnapshot(other)
            for table in [oldest, middle, newest] { #expect(try store.saveSnapshot(table, keep: 2)) }

            #expect(try store.snapshotCount(base: "USD") == 2)
            #expect(try store.latestSnapshot(base: "USD") == newest)
            #expect(try store.snapshot(base: "USD", olderThan: newest.asOf) == middle)
            #expect(try store.snapshot(base: "USD", olderThan: middle.asOf) == nil)
            // Two kept USD rates plus EUR's one: the oldest snapshot's two rates are gone.
            #expect(try store.integer("SELECT count(*) FROM rate") == 3)
            #expect(try store.latestSnapshot(base: "EUR") == other)
        }
    }

    @Test("a table older than the kept ones is dropped at once")
    func olderThanKept() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try store.saveSnapshot(try rateTable(asOfSeconds: 200))
            try store.saveSnapshot(try rateTable(asOfSeconds: 300))
            #expect(try store.saveSnapshot(try rateTable(asOfSeconds: 100), keep: 2))
            #expect(try store.snapshot(base: "USD", olderThan: Timestamp(secondsSince1970: 200)) == nil)
            #expect(try store.integer("SELECT count(*) FROM rate") == 2)
        }
    }

    @Test("olderThan picks the most recent snapshot strictly before the time")
    func olderThan() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            for seconds: Int64 in [10, 20, 30, 40] {
                try store.saveSnapshot(try rateTable(asOfSeconds: seconds, rates: ["KRW": "\(seconds)"]), keep: 10)
            }
            let cases: [(Int64, Int64?)] = [(40, 30), (35, 30), (30, 20), (11, 10), (10, nil), (1_000, 40)]
            for (before, expected) in cases {
                let found = try store.snapshot(base: "USD", olderThan: Timestamp(secondsSince1970: before))
                #expect(found?.asOf == expected.map(Timestamp.init(secondsSince1970:)), "older than \(before)")
            }
        }
    }
}

extension SnapshotTests {
    @Test("a table with a rate that cannot be a rate, or with refused rates, is not stored")
    func implausibleNotStored() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let zero = try rateTable(asOfSeconds: 1, rates: ["KRW": "0", "EUR": "0.9"])
            #expect(
                storeErrorMessage { () throws(AggError) in try store.saveSnapshot(zero) }
                    == "refusing to store the USD rate snapshot: KRW rate 0 refused: an exchange rate must be above zero"
            )
            var refused = try rateTable(asOfSeconds: 2, rates: ["EUR": "0.9"])
            refused.refused = [RateRefusal(code: "KRW", text: "-1", reason: "an exchange rate must be above zero")]
            #expect(
                storeErrorMessage { () throws(AggError) in try store.saveSnapshot(refused) }
                    == "refusing to store the USD rate snapshot: KRW rate -1 refused: an exchange rate must be above zero"
            )
            #expect(try store.snapshotCount(base: "USD") == 0)
        }
    }

    @Test("keeping fewer than one snapshot is refused as a usage error")
    func keepZero() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            #expect(throws: AggError.usage("at least one rate snapshot must be kept (keep was 0)")) {
                try store.saveSnapshot(try rateTable(asOfSeconds: 1), keep: 0)
            }
            #expect(try store.snapshotCount(base: "USD") == 0)
        }
    }
}

/// A rate table of `source` (as `rateTable` makes them, with another source).
private func table(
    _ source: String, base: String = "USD", asOfSeconds: Int64, krw: String, nextUpdateSeconds: Int64? = nil
) throws -> RateTable {
    var table = try rateTable(
        base: base, asOfSeconds: asOfSeconds, rates: ["KRW": krw], nextUpdateSeconds: nextUpdateSeconds)
    table.source = source
    return table
}

@Suite("Rate snapshots of several sources")
struct SourceSnapshotTests {
    @Test("two sources' tables of the same base and time are both stored")
    func sameTime() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let ecb = try table("frankfurter", asOfSeconds: 100, krw: "1373.59")
            let bank = try table("dunamu", asOfSeconds: 100, krw: "1372.5")
            #expect(try store.saveSnapshot(ecb))
            #expect(try store.saveSnapshot(bank))
            #expect(try store.snapshotCount(base: "USD") == 2)
            #expect(try store.latestSnapshot(base: "USD", source: "frankfurter") == ecb)
            #expect(try store.latestSnapshot(base: "USD", source: "dunamu") == bank)
        }
    }

    @Test("each source keeps its own newest snapshots; another source's newer ones prune nothing of it")
    func retention() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let day1 = try table("exchangerate", asOfSeconds: 100, krw: "1335.841127")
            let day2 = try table("exchangerate", asOfSeconds: 200, krw: "1331.529034")
            try store.saveSnapshot(day1, keep: 2)
            try store.saveSnapshot(day2, keep: 2)
            for minute in Int64(1)...5 {
                try store.saveSnapshot(
                    try table("dunamu", asOfSeconds: 200 + minute * 60, krw: "137\(minute)"), keep: 2)
            }
            #expect(try store.snapshotCount(base: "USD", source: "exchangerate") == 2)
            #expect(try store.snapshotCount(base: "USD", source: "dunamu") == 2)
            #expect(try store.snapshotCount(base: "USD") == 4)
            #expect(try store.latestSnapshot(base: "USD")?.source == "dunamu")
            // The previous snapshot of a source is its own, never another source's.
            #expect(try store.snapshot(base: "USD", source: "exchangerate", olderThan: day2.asOf) == day1)
            #expect(
                try store.snapshot(base: "USD", source: "dunamu", olderThan: Timestamp(secondsSince1970: 500))?.rates[
                    "KRW"] == (try decimal("1374")))
            #expect(try store.integer("SELECT count(*) FROM rate") == 4)
        }
    }

    @Test("a source's current snapshot is found even when another source stored a newer one since")
    func current() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let daily = try table("exchangerate", asOfSeconds: 100, krw: "1331.529034", nextUpdateSeconds: 1_000)
            try store.saveSnapshot(daily)
            try store.saveSnapshot(try table("dunamu", asOfSeconds: 300, krw: "1372.5"))
            let now = Timestamp(secondsSince1970: 400)
            #expect(try store.currentSnapshot(base: "USD", source: "exchangerate", now: now) == daily)
            #expect(try store.currentSnapshot(base: "USD", source: "dunamu", now: now) == nil)
            #expect(try store.currentSnapshot(base: "USD", source: "frankfurter", now: now) == nil)
        }
    }
}
