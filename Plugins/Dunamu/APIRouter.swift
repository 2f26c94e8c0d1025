import AggCore

/// Every Dunamu quotation endpoint agg uses; the only place that builds its URLs.
///
/// Currencies reaching the router are validated codes from `currencies`, so nothing here needs
/// escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /v1/forex/recent?codes=FRX.KRW{CUR}`: Hana Bank's latest KRW price of one unit (or
    /// 100 units, for JPY) of `currency`.
    case recent(currency: String)

    /// The currencies agg asks Dunamu for: the ones Hana Bank quotes against KRW that agg knows
    /// the units of.
    static let currencies = ["USD", "JPY", "EUR", "CNY", "GBP", "CHF", "CAD", "AUD", "HKD", "SGD"]

    /// Dunamu's code for the KRW price of `currency`: `FRX.KRWUSD`.
    static func code(_ currency: String) -> String {
        "FRX.KRW\(currency)"
    }

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .recent(let currency): "/v1/forex/recent?codes=\(Self.code(currency))"
        }
    }
}
