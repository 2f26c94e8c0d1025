import AggCore

/// Every Upbit quotation endpoint agg uses; the only place that builds Upbit URLs, and the map
/// between Upbit's market codes (`KRW-BTC`: quote first) and unified markets (`BTC/KRW`).
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
public enum APIRouter: Sendable, Equatable {
    /// `GET /v1/ticker?markets=KRW-BTC,KRW-ETH`: tickers of one or more markets. One unknown
    /// code fails the whole request.
    case ticker([Market])
    /// `GET /v1/market/all`: every market, with Korean and English names.
    case marketAll

    /// The quote currencies of Upbit's markets.
    public static let quoteCurrencies = ["KRW", "BTC", "USDT"]

    /// The absolute URL under `baseURL` (which may carry a path prefix, kept as is).
    public func url(baseURL: String) -> String {
        baseURL + path
    }

    /// The path and query after the base URL.
    public var path: String {
        switch self {
        case .ticker(let markets):
            "/v1/ticker?markets=" + markets.map(Self.code).joined(separator: ",")
        case .marketAll: "/v1/market/all"
        }
    }

    /// Upbit's code for `market` (`KRW-BTC`), or `nil` when Upbit has no markets in its quote.
    public static func venueSymbol(for market: Market) -> String? {
        quoteCurrencies.contains(market.quote) ? code(market) : nil
    }

    /// `QUOTE-BASE`, whatever the quote.
    static func code(_ market: Market) -> String {
        "\(market.quote)-\(market.base)"
    }

    /// The unified market of an Upbit code (`KRW-BTC` → `BTC/KRW`), or `nil` when the code is
    /// not `QUOTE-BASE` with a quote Upbit serves and valid codes.
    public static func market(fromVenueSymbol symbol: String) -> Market? {
        let parts = symbol.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, quoteCurrencies.contains(String(parts[0])),
            let base = try? AssetCode.validate(String(parts[1])), base == parts[1]
        else { return nil }
        return Market(base: base, quote: String(parts[0]))
    }
}
