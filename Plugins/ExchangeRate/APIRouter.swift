import AggCore

/// Every ExchangeRate-API open-access endpoint agg uses; the only place that builds its URLs.
///
/// Codes reaching the router are validated currency codes (three letters A-Z, from
/// `AssetCode.validateCurrency`), so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /v6/latest/{BASE}`: the day's rates from one base currency.
    case latest(base: String)

    /// The path after the base URL.
    var path: String {
        switch self {
        case .latest(let base): "/v6/latest/\(base)"
        }
    }
}
