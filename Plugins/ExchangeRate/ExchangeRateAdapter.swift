import AggCore
import AggJSON

/// ExchangeRate-API, open access: daily exchange rates from one base currency to about 160
/// others, no key needed. The provider asks to be credited wherever its rates are shown
/// (`descriptor.attribution`).
public struct ExchangeRateAdapter: CompiledAdapter {
    /// An FX venue quoting no markets, at one request a second (the provider updates daily and
    /// blocks for about 20 minutes past its quota).
    public static let descriptor = AdapterDescriptor(
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
    private let now: @Sendable () -> Timestamp

    /// An adapter reaching the API at `environment.baseURL` through `environment.http`, its
    /// tables' times bounded by `environment.now`.
    public init(environment: AdapterEnvironment) {
        now = environment.now
        client = VenueClient(Self.descriptor, environment: environment, envelope: ExchangeRateDecoding.envelope)
    }

    /// The day's rates from `base`, which is validated (three letters A-Z, upper-cased) before
    /// any request is made.
    ///
    /// - Throws: `AggError.invalidCurrency` for a code that is not three letters;
    ///   `AggError.venue` with the API's error type as its code (`unsupported-code`, ...);
    ///   `AggError.rateLimited` for HTTP 429, whatever the body says; transport, HTTP and
    ///   decoding errors naming `exchangerate`.
    public func rates(base: String) async throws(AggError) -> RateTable {
        let code = try AssetCode.validateCurrency(base)
        return try await client.get(APIRouter.latest(base: code)) { json throws(JSONDecodingError) in
            try ExchangeRateDecoding.rateTable(json, base: code, now: now())
        }
    }
}
