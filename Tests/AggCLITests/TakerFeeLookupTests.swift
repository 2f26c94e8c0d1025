import AggCore
import AggVenues
import FoundationEssentials
import Testing

@testable import AggServices

/// The taker fee routes and net premiums use: the config file's rate over the venue's schedule.
@Suite("taker fee lookup")
struct TakerFeeLookupTests {
    @Test("the venue's schedule, with its page and date")
    func schedule() throws {
        let lookup = TakerFeeLookup(registry: .standard)
        let upbit = try #require(lookup.taker(venue: "upbit", quotedIn: "KRW"))
        let schedule = try #require(AdapterRegistry.standard.descriptor(id: "upbit")?.fees)
        #expect(upbit.fee == schedule.taker(quotedIn: "KRW"))
        #expect(upbit.source == .schedule(source: schedule.source, asOf: schedule.asOf))
    }

    @Test("the config file's rate wins and keeps the venue's charge")
    func override() throws {
        let lookup = TakerFeeLookup(registry: .standard, overrides: ["binance": Decimal(string: "0.00075")!])
        let binance = try #require(lookup.taker(venue: "binance", quotedIn: "USDT"))
        let schedule = try #require(AdapterRegistry.standard.descriptor(id: "binance")?.fees)
        #expect(binance.fee == TakerFee(rate: Decimal(string: "0.00075")!, buyCharge: schedule.buyCharge))
        #expect(binance.source == .configuration)
    }

    @Test("an FX source has no fee")
    func none() {
        #expect(TakerFeeLookup(registry: .standard).taker(venue: "frankfurter", quotedIn: "KRW") == nil)
    }
}
