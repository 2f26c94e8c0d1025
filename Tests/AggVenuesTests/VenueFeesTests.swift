import AggCore
import AggTestKit
import AggVenues
import Testing

/// The venues' published taker fees are data in their descriptors: every built-in venue that
/// trades says its rate, what a buy's fee is taken in, and where and when it was read.
@Suite("Venue fees")
struct VenueFeesTests {
    /// The taker rate of the home market and what a buy's fee is taken in, per venue.
    static let expected: [String: (home: String, other: String?, charge: TakerFee.Charge)] = [
        "upbit": ("0.0005", "0.0025", .quoteCurrency),
        "bithumb": ("0.0025", "0", .quoteCurrency),
        "coinone": ("0.0025", nil, .quoteCurrency),
        "korbit": ("0", nil, .quoteCurrency),
        "binance": ("0.001", nil, .coin),
        "okx": ("0.001", nil, .coin),
        "coinbase": ("0.006", nil, .quoteCurrency),
        "kraken": ("0.004", nil, .quoteCurrency),
    ]

    /// The eight built-in trading venues; a venue added later (the scaffold's) states its fees
    /// when its author has read them, and has none until then.
    @Test func everyBuiltInTradingVenueStatesItsTakerFeeAndItsSource() throws {
        let descriptors = AdapterRegistry.standard.registrations.map(\.descriptor)
        let trading = descriptors.filter { Self.expected[$0.id] != nil }
        #expect(Set(trading.map(\.id)) == Set(Self.expected.keys))
        for descriptor in trading {
            let fees = try #require(descriptor.fees, "\(descriptor.id)")
            let expected = try #require(Self.expected[descriptor.id])
            #expect(fees.taker(quotedIn: descriptor.homeCurrency).rate == decimal(expected.home), "\(descriptor.id)")
            #expect(fees.buyCharge == expected.charge, "\(descriptor.id)")
            if let other = expected.other, let currency = descriptor.quoteCurrencies.last {
                #expect(fees.taker(quotedIn: currency).rate == decimal(other), "\(descriptor.id) \(currency)")
            }
            #expect(fees.source.hasPrefix("https://"), "\(descriptor.id)")
            #expect(fees.asOf.count == 10 && fees.asOf.hasPrefix("2026-"), "\(descriptor.id)")
        }
        for descriptor in descriptors where descriptor.supports(.fxRates) {
            #expect(descriptor.fees == nil, "\(descriptor.id)")
        }
    }
}
