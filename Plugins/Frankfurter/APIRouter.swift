import AggCore

/// Every Frankfurter endpoint agg uses; the only place that builds its URLs.
///
/// Codes reaching the router are validated currency codes (three letters A-Z, from
/// `AssetCode.validateCurrency`), so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /v1/latest?base={BASE}`: the ECB reference rates of the last working day, rebased
    /// on `base`. (Frankfurter has a v2 API too; v1 is documented to keep working.)
    case latest(base: String)

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .latest(let base): "/v1/latest?base=\(base)"
        }
    }
}
