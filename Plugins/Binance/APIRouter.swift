import AggCore

/// Every Binance spot endpoint agg uses; the only place that builds Binance URLs, and the map
/// between Binance's symbols (`BTCUSDT`: base and quote run together) and unified markets.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
public enum APIRouter: VenueRoute, Equatable {
    /// `GET /api/v3/ticker/24hr?symbol=BTCUSDT`: the rolling 24-hour ticker of one symbol.
    case ticker24h(Market)
    /// `GET /api/v3/exchangeInfo`: every symbol with its base and quote asset.
    case exchangeInfo

    /// The quote currencies agg asks Binance for, the main one first.
    public static let quoteCurrencies = ["USDT", "USDC", "FDUSD", "BTC", "ETH", "BNB", "EUR"]

    /// The quote currencies by length, longest first, for splitting symbols: `FDUSD` must be
    /// tried before a shorter code that could end the same symbol.
    static let splitOrder = quoteCurrencies.sorted { $0.count > $1.count }

    /// The path and query after the base URL.
    public var path: String {
        switch self {
        case .ticker24h(let market): "/api/v3/ticker/24hr?symbol=\(market.base)\(market.quote)"
        case .exchangeInfo: "/api/v3/exchangeInfo"
        }
    }

    /// Binance's symbol for `market` (`BTCUSDT`), or `nil` when agg does not ask Binance for
    /// markets in its quote.
    public static func venueSymbol(for market: Market) -> String? {
        quoteCurrencies.contains(market.quote) ? market.base + market.quote : nil
    }

    /// The unified market of a Binance symbol, split at the longest known quote currency it ends
    /// with (`ETHBTC` → `ETH/BTC`, `BTCFDUSD` → `BTC/FDUSD`), or `nil` when none fits.
    public static func market(fromVenueSymbol symbol: String) -> Market? {
        for quote in splitOrder where symbol.hasSuffix(quote) && symbol.count > quote.count {
            let base = String(symbol.dropLast(quote.count))
            guard (try? AssetCode.validate(base)) == base else { return nil }
            return Market(base: base, quote: quote)
        }
        return nil
    }
}
