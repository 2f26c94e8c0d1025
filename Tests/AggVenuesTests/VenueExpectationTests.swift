import AggCore
import AggTestKit
import AggTransport
import AggVenues
import Foundation
import Testing

/// Every registered venue, compiled or a shipped venue file, against the expectations in its
/// `Fixtures/<id>/expectations.json`: what it asks for, which recorded answer answers, and the
/// exact model or error it gives back.
@Suite("Every venue answers as its expectations.json says")
struct VenueExpectationTests {
    static let venues = AdapterRegistry.standard.registrations + AdapterRegistry.shippedDataVenues

    @Test("each case: the requests sent, the routes answering them, the exact answer or error", arguments: venues)
    func expectations(_ registration: AdapterRegistration) async throws {
        let id = registration.descriptor.id
        let expectations = try VenueExpectations.venue(id)
        let problems = try await expectations.check(registration) + expectations.gaps(registration.descriptor)
        #expect(problems == [], Comment(rawValue: "\(id):\n" + problems.joined(separator: "\n")))
    }

    @Test("the same cases over HTTP: libcurl against the loopback server serving the same routes", arguments: venues)
    func overHTTP(_ registration: AdapterRegistration) async throws {
        let id = registration.descriptor.id
        let server = try FixtureServer(venues: [id])
        defer { server.stop() }
        let problems = try await VenueExpectations.venue(id).check(
            registration, baseURL: server.baseURL(for: id),
            http: CurlHTTPClient(timeouts: HTTPTimeouts(connect: 2, total: 10)))
        #expect(problems == [], Comment(rawValue: "\(id):\n" + problems.joined(separator: "\n")))
    }

    @Test("every venue folder in Fixtures/ belongs to a registered venue")
    func noStrayFolders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path)
            .filter {
                FileManager.default.fileExists(
                    atPath: Fixtures.directory.appendingPathComponent("\($0)/routes.json").path)
            }
        #expect(Set(folders) == Set(Self.venues.map(\.descriptor.id)))
    }

    /// The runner fails on a wrong expectation, naming the case, the path and both values.
    @Test("a wrong decimal, a missing field, a wrong route and an unexpected error are each one line")
    func wrongExpectations() async throws {
        let text = #"""
            {"venue": "kraken", "cases": [
              {"test": "t1", "ask": {"ticker": "ETH/USD"},
               "sent": [{"url": "/0/public/Ticker?pair=ETHUSD", "route": "Ticker_all.json"}],
               "answer": {"exchange": "kraken", "market": "ETH/USD", "last": "2478.690", "open": "2436.11",
                 "high": "2512", "low": "2381", "change": "42.58", "changePercent": "1.7479",
                 "changeBasis": "sinceUTCMidnight"}},
              {"test": "t2", "ask": {"ticker": "NOPE/USD"},
               "sent": [{"url": "/0/public/Ticker?pair=NOPEUSD", "route": "error_unknown_asset_pair.json"}],
               "answer": {"count": 1}},
              {"test": "t3", "ask": {"allTickers": "EUR"}, "sent": [{"url": "/0/public/Ticker", "route": "Ticker_all.json"}],
               "answer": {"count": 13, "includes": [{"market": "BTC/EUR"}], "without": [{"market": "USDT/EUR"}]}}
            ]}
            """#
        let expectations = try VenueExpectations(json: Array(text.utf8))
        let kraken = try #require(AdapterRegistry.standard.registration(id: "kraken"))
        let problems = try await expectations.check(kraken)
        #expect(
            problems == [
                #"t1: $.last: expected "2478.690", got "2478.69""#,
                #"t1: $.baseVolume: not expected, got "64125.81236547""#,
                "t1: sent [\"/0/public/Ticker?pair=ETHUSD → Ticker_ETHUSD.json\"], expected [\"/0/public/Ticker?pair=ETHUSD → Ticker_all.json\"]",
                #"t2: $.count: expected 1, got nothing"#,
                #"t2: $.error: not expected, got {"kind":"notListed","message":"kraken: NOPE/USD is not listed (error EQuery:Unknown asset pair: Unknown asset pair)"}"#,
                "t3: $.count: expected 13, got 12",
                #"t3: $.without: an item matches {"market":"USDT/EUR"}"#,
            ])
    }
}
