import AggCore
import AggJSON

/// Frankfurter: the European Central Bank's reference rates (about 30 currencies, KRW among
/// them), published once a working day at about 16:00 Frankfurt time and rebased on any of
/// those currencies. No key, no published quota.
///
/// There are no weekend or holiday rates: the latest answer carries the date of the last
/// working day. Hosts that Frankfurter has retired redirect to the current one; the transport
/// follows redirects.
package struct FrankfurterAdapter: CompiledAdapter {
    /// An FX venue quoting no markets, asked at most once a second (the data changes once a
    /// day; Frankfurter publishes no limit).
    package static let descriptor = AdapterDescriptor(
        id: "frankfurter",
        displayName: "Frankfurter (ECB reference rates)",
        country: "DE",
        homeCurrency: "EUR",
        quoteCurrencies: [],
        capabilities: [.fxRates],
        requestsPerSecond: 1,
        defaultBaseURL: "https://api.frankfurter.dev",
        attribution:
            "Euro foreign exchange reference rates of the European Central Bank, via Frankfurter (https://frankfurter.dev)"
    )

    private let client: VenueClient

    /// An adapter reaching the API at `environment.baseURL` through `environment.http`, its
    /// tables' times bounded by `environment.now`.
    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: FrankfurterDecoding.envelope)
    }

    /// The last working day's rates from the request's base.
    ///
    /// - Throws: `AggError.venue` with code 404 for a base Frankfurter does not have (its message
    ///   says so); `AggError.rateLimited` for HTTP 429; transport, HTTP and decoding errors naming
    ///   `frankfurter`.
    package func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        do throws(AggError) {
            return try await client.get(APIRouter.latest(base: request.base)) { json throws(JSONDecodingError) in
                try FrankfurterDecoding.rateTable(json, base: request.base, now: client.now())
            }
        } catch {
            if case .venue(let venue, "404", let message) = error {
                throw .venue(
                    venue: venue, code: "404",
                    message: "\(message): Frankfurter has no ECB reference rates from \(request.base)")
            }
            throw error
        }
    }
}
