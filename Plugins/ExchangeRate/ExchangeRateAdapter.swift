import AggCore
import AggJSON

/// ExchangeRate-API, open access: daily exchange rates from one base currency to about 160
/// others, no key needed. The provider asks to be credited wherever its rates are shown
/// (`descriptor.attribution`).
package struct ExchangeRateAdapter: CompiledAdapter {
    /// An FX venue quoting no markets, at one request a second (the provider updates daily and
    /// blocks for about 20 minutes past its quota).
    package static let descriptor = AdapterDescriptor(
        id: "exchangerate",
        displayName: "ExchangeRate-API",
        country: "ZA",
        homeCurrency: "USD",
        quoteCurrencies: [],
        capabilities: [.fxRates],
        requestsPerSecond: 1,
        defaultBaseURL: "https://open.er-api.com",
        attribution: "Rates By Exchange Rate API (https://www.exchangerate-api.com)"
    )

    private let client: VenueClient

    /// An adapter reaching the API at `environment.baseURL` through `environment.http`, its
    /// tables' times bounded by `environment.now`.
    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: ExchangeRateDecoding.envelope)
    }

    /// The day's rates from the request's base.
    ///
    /// - Throws: `AggError.venue` with the API's error type as its code (`unsupported-code`,
    ///   ...); `AggError.rateLimited` for HTTP 429, whatever the body says; transport, HTTP and
    ///   decoding errors naming `exchangerate`.
    package func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        try await client.get(APIRouter.latest(base: request.base)) { json throws(JSONDecodingError) in
            try ExchangeRateDecoding.rateTable(json, base: request.base, now: client.now())
        }
    }
}
