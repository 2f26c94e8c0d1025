import AggCore
import AggJSON
import Foundation

/// A test-only FX source, so that `compare` can be tested without the real FX adapter:
/// `GET {base}/latest/{BASE}` answers `{"base":"USD","time":<seconds>,"rates":{"KRW":"1442.35"}}`.
struct TestFXAdapter: CompiledAdapter {
    static let descriptor = AdapterDescriptor(
        id: "testfx", displayName: "Test FX", country: "ZZ", homeCurrency: "USD", quoteCurrencies: [],
        capabilities: [.fxRates], requestsPerSecond: 1, defaultBaseURL: "https://fx.test",
        attribution: "Rates by Test FX")

    /// The body the tests' FX source sends: USD→KRW 1442.35 as of 2025-11-29T23:00:00Z.
    static let body = """
        {"base":"USD","time":1764457200,"rates":{"USD":1,"KRW":"1442.35","EUR":"0.863","JPY":"156.12"}}
        """

    private let client: VenueClient

    init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: .none)
    }

    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        try await client.get(Route(path: "/latest/" + request.base)) { json throws(JSONDecodingError) in
            var rates: [String: Decimal] = [:]
            for member in try json["rates"].members() { rates[member.key] = try member.value.decimal() }
            return RateTable(
                source: Self.descriptor.id, base: try json["base"].string(), rates: rates,
                asOf: Timestamp(secondsSince1970: try json["time"].int64()), nextUpdate: nil)
        }
    }

    struct Route: VenueRoute {
        var path: String
    }
}

/// The executable's exchanges with the test FX source in place of the real one.
func registryWithFX() -> AdapterRegistry {
    var registry = venueRegistry()
    registry.register(TestFXAdapter.self)
    return registry
}
