import AggCore
import FoundationEssentials
import Testing

@testable import AggPostgres

/// The PostgreSQL `EventStore`: the diff under a per-source lock, state kept across
/// connections, one event per change however many recorders share the database.
@Suite("PostgreSQL event store", .enabled(if: TestDatabase.available, TestDatabase.skipNotice))
struct PostgresEventStoreTests {
    static func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    static let btc = EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")
    static let xrp = EventFact(condition: .listed, symbol: "XRP", detail: "리플 / XRP")
    static let notice = EventFact(
        condition: .notice, symbol: nil, subject: "4521", detail: "line\n\"quoted\", {braces} \\ \u{1B}[31m",
        venueTime: Timestamp(millisecondsSince1970: 1_796_083_200_123))

    static func markets(_ seconds: Int64, _ facts: [EventFact]) -> EventObservation {
        EventObservation(venue: "upbit", source: "markets", observedAt: at(seconds), facts: facts)
    }

    static let all = EventQuery(since: Timestamp(millisecondsSince1970: 0))

    @Test("baseline, then exact events read back (venue text and venue time included), and a new store continues")
    func baselineAndRestart() async throws {
        let url = try await TestDatabase.freshSchema()
        let first = try await PostgresHistoryStore.open(url, clock: .caller)
        #expect(try await first.observe(Self.markets(100, [Self.btc])) == [])
        let notices = EventObservation(venue: "bithumb", source: "notices", observedAt: Self.at(100), facts: [])
        #expect(try await first.observe(notices) == [])
        #expect(try await first.observe(Self.markets(200, [Self.btc, Self.xrp])).map(\.kind) == [.listed])

        let second = try await PostgresHistoryStore.open(url, clock: .caller)
        #expect(try await second.observe(Self.markets(300, [Self.btc, Self.xrp])) == [])
        var later = notices
        later.observedAt = Self.at(300)
        later.facts = [Self.notice]
        let posted = try await second.observe(later)
        #expect(
            posted == [
                MarketEvent(
                    venue: "bithumb", kind: .notice, symbol: nil, subject: "4521", detail: Self.notice.detail,
                    firstObserved: Self.at(300), venueTime: Self.notice.venueTime)
            ])
        let stored = try await second.events(Self.all)
        #expect(
            stored == [
                MarketEvent(
                    venue: "upbit", kind: .listed, symbol: "XRP", detail: "리플 / XRP", firstObserved: Self.at(200)),
                posted[0],
            ])
        #expect(try await second.events(EventQuery(since: Self.at(0), kinds: [.notice], venues: ["bithumb"])) == posted)
        #expect(try await second.events(EventQuery(since: Self.at(0), symbols: ["XRP"])).count == 1)
        #expect(try await second.events(EventQuery(since: Self.at(0), until: Self.at(200))) == [])
    }

    @Test("an observation older than the stored one (a recorder's late answer) changes nothing and raises nothing")
    func lateObservation() async throws {
        let url = try await TestDatabase.freshSchema()
        let store = try await PostgresHistoryStore.open(url, clock: .caller)
        _ = try await store.observe(Self.markets(100, [Self.btc]))
        #expect(try await store.observe(Self.markets(300, [Self.btc, Self.xrp])).map(\.kind) == [.listed])
        #expect(try await store.observe(Self.markets(200, [Self.btc])) == [])
        #expect(try await store.observe(Self.markets(400, [Self.btc, Self.xrp])) == [])
        #expect(try await store.events(Self.all).map(\.kind) == [.listed])
    }

    @Test("two stores on one database observing the same change at once record it once")
    func twoRecorders() async throws {
        let url = try await TestDatabase.freshSchema()
        let setup = try await PostgresHistoryStore.open(url, clock: .caller)
        _ = try await setup.observe(Self.markets(100, [Self.btc]))
        let one = try await PostgresHistoryStore.open(url, clock: .caller)
        let two = try await PostgresHistoryStore.open(url, clock: .caller)
        for round in 1...20 {
            let listed = round % 2 == 1 ? [Self.btc, Self.xrp] : [Self.btc]
            async let first = one.observe(Self.markets(100 + Int64(round), listed))
            async let second = two.observe(Self.markets(100 + Int64(round), listed))
            let answers = try await [first, second]
            #expect(answers.map(\.count).sorted() == [0, 1], "round \(round)")
        }
        let stored = try await setup.events(Self.all)
        #expect(stored.map(\.kind) == (1...20).map { $0 % 2 == 1 ? .listed : .delisted })
    }
}
