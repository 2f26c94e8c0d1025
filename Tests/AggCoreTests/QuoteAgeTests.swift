import AggCore
import AggTestKit
import FoundationEssentials
import Testing

@Suite("Quote age")
struct QuoteAgeTests {
    static let market = Market(base: "BTC", quote: "KRW")

    static func quote(venue: Int64?, received: Int64?) -> Quote {
        Quote(
            exchange: "upbit", market: market, last: 1, timestamp: venue.map(Timestamp.init(millisecondsSince1970:)),
            receivedAt: received.map(Timestamp.init(millisecondsSince1970:)))
    }

    @Test func theVenuesTimeIsTheBasisWhenTheVenueSendsOne() {
        let age = Self.quote(venue: 1_000_000, received: 1_000_900).age(at: Timestamp(millisecondsSince1970: 1_012_345))
        #expect(age == QuoteAge(milliseconds: 12_345, basis: .venueTime))
        #expect(age?.seconds == decimal("12.345"))
    }

    @Test func theReceiveTimeIsTheBasisWhenTheVenueSendsNone() {
        let age = Self.quote(venue: nil, received: 2_000_000).age(at: Timestamp(millisecondsSince1970: 2_000_007))
        #expect(age == QuoteAge(milliseconds: 7, basis: .receivedAt))
        #expect(age?.seconds == decimal("0.007"))
        #expect(Self.quote(venue: nil, received: nil).age(at: Timestamp(millisecondsSince1970: 1)) == nil)
    }

    @Test func aVenueClockAheadOfAggsGivesAgeZero() {
        let age = Self.quote(venue: 5_000, received: nil).age(at: Timestamp(millisecondsSince1970: 4_000))
        #expect(age?.milliseconds == 0)
        #expect(age?.seconds == 0)
    }

    @Test func aQuoteIsStaleOnlyPastTheLimit() {
        #expect(!QuoteAge(milliseconds: 30_000, basis: .venueTime).isStale(after: .seconds(30)))
        #expect(QuoteAge(milliseconds: 30_001, basis: .venueTime).isStale(after: .seconds(30)))
        #expect(QuoteAge(milliseconds: 1_501, basis: .receivedAt).isStale(after: .milliseconds(1_500)))
        #expect(QuoteAge.defaultStaleAfter == .seconds(30))
    }
}
