import AggCore
import AggTestKit
import AggVenues
import Testing

@testable import AggServices

private let at = Timestamp(secondsSince1970: 1_796_300_000)

/// The registered adapter `id` over its fixture answers.
private func adapter(_ id: String, http: (any HTTPClient)? = nil) throws -> any VenueAdapter {
    let baseURL = "https://\(id).invalid"
    return try AdapterRegistry.standard.makeAdapter(
        id: id,
        environment: AdapterEnvironment(baseURL: baseURL, http: try http ?? Fixtures.client(id, baseURL: baseURL)))
}

@Suite("The event sources service: schedules and observations for agg record --events")
struct EventSourcesServiceTests {
    @Test("every source of every venue, in order, at its default or asked interval, never under its minimum")
    func schedules() throws {
        let service = EventSourcesService(
            adapters: [try adapter("bithumb"), try adapter("upbit"), try adapter("coinone"), try adapter("bithumb")],
            now: { at })
        let rows = service.schedules().map { "\($0.venue) \($0.source) \($0.interval)" }
        #expect(
            rows == [
                "bithumb markets 300.0 seconds", "bithumb warnings 300.0 seconds", "bithumb notices 60.0 seconds",
                "bithumb transfers 300.0 seconds", "upbit markets 300.0 seconds", "coinone markets 300.0 seconds",
                "coinone transfers 300.0 seconds",
            ])
        let asked = service.schedules(intervals: ["notices": .milliseconds(200), "markets": .seconds(600)])
        #expect(
            asked.map { "\($0.venue) \($0.source) \($0.interval)" } == [
                "bithumb markets 600.0 seconds", "bithumb warnings 300.0 seconds", "bithumb notices 1.0 seconds",
                "bithumb transfers 300.0 seconds", "upbit markets 600.0 seconds", "coinone markets 600.0 seconds",
                "coinone transfers 300.0 seconds",
            ])
    }

    @Test("an observation made at the clock's time; a venue's own source and a generic one alike")
    func observe() async throws {
        let coinone = try adapter("coinone")
        let service = EventSourcesService(adapters: [try adapter("bithumb"), coinone], now: { at })
        let notices = try await service.observe(venue: "bithumb", source: "notices").get()
        #expect(notices.venue == "bithumb")
        #expect(notices.source == "notices")
        #expect(notices.observedAt == at)
        #expect(
            notices.facts.map(\.subject) == [
                "https://feed.bithumb.com/notice/1651200", "https://feed.bithumb.com/notice/1651190",
                "https://feed.bithumb.com/notice/1651180",
            ])
        let markets = try await service.observe(venue: "coinone", source: "markets").get()
        let expected = GenericEventFacts.listed(
            try await coinone.marketsAnswer(), venue: "coinone", source: "markets", at: at)
        #expect(markets == expected)
        #expect(!markets.facts.isEmpty)
    }

    @Test("a venue not given, a source the venue lacks, a failed request: each the error, no observation")
    func failures() async throws {
        let failing = ScriptedHTTPClient(status: 503, body: "<html>busy</html>")
        let service = EventSourcesService(adapters: [try adapter("upbit", http: failing)], now: { at })
        #expect(
            await service.observe(venue: "bithumb", source: "notices")
                == .failure(.usage("no event sources of 'bithumb' here; venues: upbit")))
        #expect(
            await service.observe(venue: "upbit", source: "notices")
                == .failure(.usage("upbit has no event source 'notices'; it has: markets")))
        guard case .failure(let error) = await service.observe(venue: "upbit", source: "markets") else {
            Issue.record("a 503 gave an observation")
            return
        }
        #expect(error.venue == "upbit")
        #expect(!error.isUsageError)
    }
}
