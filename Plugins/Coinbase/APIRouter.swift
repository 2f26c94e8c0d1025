import AggCore

/// Every Coinbase Exchange endpoint agg uses; the only place that builds Coinbase URLs, and the
/// map between Coinbase product ids (`BTC-USD`: base first) and unified markets.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
public enum APIRouter: VenueRoute, Equatable {
    /// `GET /products/BTC-USD/ticker`: the last trade, best bid and ask, 24-hour volume.
    case ticker(Market)
    /// `GET /products/BTC-USD/stats`: open (24 hours ago), high, low, last and volume.
    case stats(Market)
    /// `GET /products`: every product.
    case products

    /// The quote currencies agg asks Coinbase for, the main one first.
    public static let quoteCurrencies = ["USD", "USDT", "USDC", "EUR", "BTC"]

    /// The path and query after the base URL.
    public var path: String {
        switch self {
        case .ticker(let market): "/products/\(Self.productID(market))/ticker"
        case .stats(let market): "/products/\(Self.productID(market))/stats"
        case .products: "/products"
        }
    }

    /// `BASE-QUOTE`, whatever the quote.
    static func productID(_ market: Market) -> String {
        "\(market.base)-\(market.quote)"
    }

    /// Coinbase's product id for `market` (`BTC-USD`), or `nil` when agg does not ask Coinbase
    /// for markets in its quote.
    public static func venueSymbol(for market: Market) -> String? {
        quoteCurrencies.contains(market.quote) ? productID(market) : nil
    }

    /// The unified market of a Coinbase product id (`BTC-USD` → `BTC/USD`), or `nil` when it is
    /// not `BASE-QUOTE` with valid codes and a quote agg asks for.
    public static func market(fromVenueSymbol symbol: String) -> Market? {
        let parts = symbol.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, quoteCurrencies.contains(String(parts[1])),
            let base = try? AssetCode.validate(String(parts[0])), base == parts[0]
        else { return nil }
        return Market(base: base, quote: String(parts[1]))
    }
}
