import AggCore
import Foundation
import Testing

@testable import AggStore

/// The SQLite `EventStore`: the diff inside one transaction, state kept across restarts, one
/// event per change however many recorders share the file.
@Suite("Event store (SQLite)")
struct EventStoreTests {
    static func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    static let btc = EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")
    static let xrp = EventFact(condition: .listed, symbol: "XRP", detail: "리플 / XRP")
    static let ada = EventFact(condition: .listed, symbol: "ADA", detail: "에이다 / Cardano")
    static let xrpCaution = EventFact(
        condition: .caution, symbol: "XRP", subject: "PRICE_FLUCTUATIONS", detail: "line\n\"quoted\", \u{1B}[31m")

    static func markets(_ seconds: Int64, _ facts: [EventFact], venue: String = "upbit") -> EventObservation {
        EventObservation(venue: venue, source: "markets", observedAt: at(seconds), facts: facts)
    }

    static func cautions(_ seconds: Int64, _ facts: [EventFact]) -> EventObservation {
        EventObservation(venue: "upbit", source: "warnings", observedAt: at(seconds), facts: facts)
    }

    static let all = EventQuery(since: Timestamp(millisecondsSince1970: 0))

    @Test("the first observation is the baseline; changes are stored with every column and read back exactly")
    func baselineThenChanges() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            #expect(try await store.observe(Self.markets(100, [Self.btc, Self.xrp])) == [])
            #expect(try await store.observe(Self.cautions(100, [])) == [])
            let listed = try await store.observe(Self.markets(200, [Self.btc, Self.ada]))
            let caution = try await store.observe(Self.cautions(200, [Self.xrpCaution]))
            #expect(
                listed == [
                    MarketEvent(
                        venue: "upbit", kind: .listed, symbol: "ADA", detail: "에이다 / Cardano",
                        firstObserved: Self.at(200)),
                    MarketEvent(
                        venue: "upbit", kind: .delisted, symbol: "XRP", detail: "리플 / XRP", firstObserved: Self.at(200)),
                ])
            #expect(
                caution == [
                    MarketEvent(
                        venue: "upbit", kind: .cautionOn, symbol: "XRP", subject: "PRICE_FLUCTUATIONS",
                        detail: "line\n\"quoted\", \u{1B}[31m", firstObserved: Self.at(200))
                ])
            let stored = try await store.events(Self.all)
            #expect(stored == [listed[0], listed[1], caution[0]])
        }
    }

    @Test("a new store on the same file sees the stored state: no second baseline, no event twice")
    func restart() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            do {
                let first = try Store.open(path: path)
                _ = try await first.observe(Self.markets(100, [Self.btc]))
                _ = try await first.observe(Self.cautions(100, []))
                #expect(try await first.observe(Self.markets(200, [Self.btc, Self.xrp])).map(\.kind) == [.listed])
            }
            let second = try Store.open(path: path)
            // The same list again after the restart: nothing new, not a baseline of BTC and XRP.
            #expect(try await second.observe(Self.markets(300, [Self.btc, Self.xrp])) == [])
            // An empty source observed before the restart is not baselined again.
            #expect(try await second.observe(Self.cautions(300, [Self.xrpCaution])).map(\.kind) == [.cautionOn])
            let stored = try await second.events(Self.all)
            #expect(stored.map(\.kind) == [.listed, .cautionOn])
            #expect(stored.map(\.firstObserved) == [Self.at(200), Self.at(300)])
        }
    }

    @Test("two stores on one file observing the same change at once record it once")
    func twoRecorders() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/agg.sqlite"
            let setup = try Store.open(path: path)
            _ = try await setup.observe(Self.markets(100, [Self.btc]))
            for round in 1...20 {
                let one = try Store.open(path: path)
                let two = try Store.open(path: path)
                let listed = Int64(round) % 2 == 1 ? [Self.btc, Self.xrp] : [Self.btc]
                async let first = one.observe(Self.markets(100 + Int64(round), listed))
                async let second = two.observe(Self.markets(100 + Int64(round), listed))
                let answers = try await [first, second]
                #expect(answers.map(\.count).sorted() == [0, 1], "round \(round)")
            }
            let stored = try await setup.events(Self.all)
            #expect(stored.count == 20)
            #expect(stored.map(\.kind) == (1...20).map { $0 % 2 == 1 ? .listed : .delisted })
        }
    }

    @Test("an observation older than the stored one (a recorder's late answer) changes nothing and raises nothing")
    func lateObservation() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            _ = try await store.observe(Self.markets(100, [Self.btc]))
            #expect(try await store.observe(Self.markets(300, [Self.btc, Self.xrp])).map(\.kind) == [.listed])
            // Made at 200, before XRP was listed, stored after the 300 one: no delisting.
            #expect(try await store.observe(Self.markets(200, [Self.btc])) == [])
            #expect(try await store.observe(Self.markets(400, [Self.btc, Self.xrp])) == [])
            #expect(try await store.events(Self.all).map(\.kind) == [.listed])
        }
    }

    @Test("a query selects by time (since inclusive, until exclusive), kind, venue and coin, in the store order")
    func query() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            _ = try await store.observe(Self.markets(100, [Self.btc]))
            _ = try await store.observe(Self.markets(100, [Self.btc], venue: "bithumb"))
            _ = try await store.observe(Self.markets(200, [Self.btc, Self.xrp], venue: "bithumb"))
            _ = try await store.observe(Self.markets(200, [Self.btc, Self.xrp]))
            _ = try await store.observe(Self.markets(300, [Self.xrp]))
            let every = try await store.events(Self.all)
            #expect(
                every.map { "\($0.venue) \($0.kind.rawValue) \($0.symbol ?? "-")" } == [
                    "bithumb listed XRP", "upbit listed XRP", "upbit delisted BTC",
                ])
            #expect(try await store.events(EventQuery(since: Self.at(200), until: Self.at(300))).count == 2)
            #expect(try await store.events(EventQuery(since: Self.at(201))).map(\.kind) == [.delisted])
            #expect(try await store.events(EventQuery(since: Self.at(0), kinds: [.delisted])).count == 1)
            #expect(try await store.events(EventQuery(since: Self.at(0), venues: ["bithumb"])).count == 1)
            #expect(try await store.events(EventQuery(since: Self.at(0), symbols: ["BTC"])).map(\.kind) == [.delisted])
        }
    }
}
