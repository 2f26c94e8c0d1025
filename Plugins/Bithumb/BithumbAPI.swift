import AggCore
import Synchronization

/// Which of Bithumb's two public APIs agg asks first.
///
/// - `classic`: the legacy `/public/*` API, agg's default. Its ALL tickers answer every coin of a
///   payment currency in one request (the v1 API has no such endpoint: all tickers cost the market
///   list and one ticker request per 100 markets), its change is a rolling 24 hours where v1's
///   day boundary is documented inconsistently (KST for volumes, UTC for the previous close), and
///   it alone publishes transfer status without an API key.
/// - `v1`: the newer, Upbit-shaped API (`/v1/ticker?markets=KRW-BTC`), which ccxt uses by
///   default since 2026 and which Bithumb develops.
///
/// Whichever is asked first, an answer saying that the endpoint is not there (an HTML page, or a
/// 404 that is not JSON: `VenueClient.isMissingEndpoint`) makes the adapter ask the other API,
/// and ask it first for that endpoint from then on. Per endpoint, not for the whole venue:
/// Bithumb's classic `ALL_BTC` has answered 404 while `ALL_KRW` worked.
enum BithumbAPI: String, Sendable, CaseIterable {
    case classic, v1

    /// The config file's `venueSettings.bithumb.api`.
    static let setting = AdapterSetting(
        name: "api", values: allCases.map(\.rawValue), defaultValue: BithumbAPI.classic.rawValue,
        summary: "which public API to ask first: classic (/public/*) or v1 (Upbit-shaped /v1/*); "
            + "either falls back to the other when an endpoint is missing")

    /// The other API.
    var other: BithumbAPI { self == .classic ? .v1 : .classic }
}

/// The API an adapter asks first for each endpoint: the configured one until it turns out to
/// miss that endpoint where the other answers. One per adapter, shared by its concurrent
/// requests.
final class BithumbAPIPreference: Sendable {
    /// The configured API.
    let configured: BithumbAPI
    private let switched = Mutex<[String: BithumbAPI]>([:])

    init(_ api: BithumbAPI) {
        configured = api
    }

    /// The API to ask first for `endpoint` (`ticker`, `allTickers/KRW`, ...).
    func first(for endpoint: String) -> BithumbAPI {
        switched.withLock { $0[endpoint] } ?? configured
    }

    func prefer(_ api: BithumbAPI, for endpoint: String) {
        switched.withLock { $0[endpoint] = api }
    }
}
