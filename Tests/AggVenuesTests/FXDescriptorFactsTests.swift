import AggCore
import AggTestKit
import AggVenues
import Testing

/// The FX sources' descriptors, one row a source: identity, reach (no markets), rate and the
/// credit the provider asks for, field by field (`AdapterDescriptor.facts`).
@Suite("Descriptor facts of the compiled FX sources")
struct FXDescriptorFactsTests {
    @Test(
        "the descriptor declares an FX source that quotes no markets, with its credit",
        arguments: [
            // an FX source that quotes no markets and credits the provider
            (
                "exchangerate",
                [
                    "id": "exchangerate", "capabilities": "fxRates", "quoteCurrencies": "", "homeCurrency": "USD",
                    "requestsPerSecond": "1.0", "defaultBaseURL": "https://open.er-api.com",
                    "baseURLVariable": "AGG_EXCHANGERATE_URL",
                    "attribution": "Rates By Exchange Rate API (https://www.exchangerate-api.com)",
                ]
            ),
            // an FX source of ECB rates that quotes no markets, with its credit
            (
                "frankfurter",
                [
                    "id": "frankfurter", "capabilities": "fxRates", "quoteCurrencies": "", "homeCurrency": "EUR",
                    "requestsPerSecond": "1.0", "defaultBaseURL": "https://api.frankfurter.dev",
                    "baseURLVariable": "AGG_FRANKFURTER_URL",
                    "attribution":
                        "Euro foreign exchange reference rates of the European Central Bank, via Frankfurter (https://frankfurter.dev)",
                ]
            ),
        ])
    func facts(venue: String, facts: [String: String]) throws {
        let registration = try #require(AdapterRegistry.standard.registrations.first { $0.descriptor.id == venue })
        #expect(registration.descriptor.facts == facts)
    }
}
