import AggCore
import AggJSON

/// Dunamu's quotation service (the company behind Upbit): Hana Bank's KRW exchange rates,
/// revised many times during the Korean business day. Unofficial and undocumented: agg keeps
/// the other FX venues beside it.
///
/// It quotes KRW per unit of a foreign currency, so it gives rates from a foreign base to KRW
/// only (`rates(base: "USD")` holds USD→KRW). Rates from KRW would be inverses, which are not
/// exact decimals: agg does not make them up, and refuses KRW and any base outside
/// `APIRouter.currencies` before asking.
package struct DunamuAdapter: CompiledAdapter {
    /// An FX venue quoting no markets, asked at most twice a second.
    package static let descriptor = AdapterDescriptor(
        id: "dunamu",
        displayName: "Dunamu (Hana Bank rates)",
        country: "KR",
        homeCurrency: "KRW",
        quoteCurrencies: [],
        capabilities: [.fxRates],
        requestsPerSecond: 2,
        defaultBaseURL: "https://quotation-api-cdn.dunamu.com",
        attribution: "Hana Bank exchange rates via Dunamu (unofficial; https://quotation-api-cdn.dunamu.com)",
        rateBases: APIRouter.currencies
    )

    /// The one currency Dunamu prices others in.
    static let quoteCurrency = "KRW"

    private let client: VenueClient

    /// An adapter reaching the API at `environment.baseURL` through `environment.http`, its
    /// tables' times bounded by `environment.now`.
    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: DunamuDecoding.envelope)
    }

    /// The latest KRW rate of the request's base (one of `APIRouter.currencies`, which the core
    /// checks before asking), as a table holding KRW and the base itself.
    ///
    /// - Throws: `AggError.venue` with code `empty` when the answer holds no quote; transport,
    ///   HTTP and decoding errors naming `dunamu`.
    package func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        let table = try await client.get(APIRouter.recent(currency: request.base)) { json throws(JSONDecodingError) in
            try DunamuDecoding.rateTable(json, base: request.base, now: client.now())
        }
        guard let table else {
            throw .venue(
                venue: Self.descriptor.id, code: DunamuDecoding.emptyCode,
                message: "no quote for \(APIRouter.code(request.base)) in the answer"
                    + " (Dunamu answers an unknown code with an empty list)")
        }
        return table
    }
}
