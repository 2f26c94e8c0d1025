import AggCore

/// Every Coinbase Exchange endpoint agg uses; the only place that builds Coinbase URLs, and the
/// map between Coinbase product ids (`BTC-USD`: base first) and unified markets.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /products/BTC-USD/ticker`: the last trade, best bid and ask, 24-hour volume.
    case ticker(Market)
    /// `GET /products/BTC-USD/stats`: open (24 hours ago), high, low, last and volume.
    case stats(Market)
    /// `GET /products`: every product.
    case products
    /// `GET /products/BTC-USD/candles?granularity=60`: the latest 300 bars, newest first. The
    /// adapter builds it only for `candleIntervals`.
    case candles(Market, interval: CandleInterval)
    /// `GET /products/BTC-USD/trades?limit=`: up to 1000 recent trades, newest first.
    case trades(Market, limit: Int)
    /// `GET /products/BTC-USD/book?level=2`: the whole book, aggregated by price.
    case book(Market)

    /// The quote currencies agg asks Coinbase for, the main one first.
    static let quoteCurrencies = ["USD", "USDT", "USDC", "EUR", "BTC"]

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker(let market): "/products/\(Self.productID(market))/ticker"
        case .stats(let market): "/products/\(Self.productID(market))/stats"
        case .products: "/products"
        case .candles(let market, let interval):
            "/products/\(Self.productID(market))/candles?granularity=\(Self.granularities[interval] ?? 60)"
        case .trades(let market, let limit): "/products/\(Self.productID(market))/trades?limit=\(limit)"
        case .book(let market): "/products/\(Self.productID(market))/book?level=2"
        }
    }

    /// The bar lengths Coinbase offers among agg's (its granularities are 1, 5 and 15 minutes,
    /// 1, 6 and 24 hours).
    static let candleIntervals = granularities.intervals

    /// Coinbase's granularity of each bar length it offers, in seconds.
    static let granularities = CandleIntervalCodes([
        .oneMinute: 60, .fiveMinutes: 300, .oneHour: 3600, .sixHours: 21600, .oneDay: 86400,
    ])

    /// `BASE-QUOTE`, whatever the quote.
    static func productID(_ market: Market) -> String {
        "\(market.base)-\(market.quote)"
    }

    /// Coinbase's product id for `market` (`BTC-USD`), or `nil` when agg does not ask Coinbase
    /// for markets in its quote.
    static func venueSymbol(for market: Market) -> String? {
        quoteCurrencies.contains(market.quote) ? productID(market) : nil
    }

    /// How Coinbase writes a product in its list: `BTC-USD`.
    static let productCode = MarketCode(separator: "-", quotes: quoteCurrencies)

    /// The unified market of a Coinbase product id (`BTC-USD` → `BTC/USD`), or `nil` when it is
    /// not `BASE-QUOTE` with valid codes and a quote agg asks for.
    static func market(fromVenueSymbol symbol: String) -> Market? {
        let parts = symbol.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, quoteCurrencies.contains(String(parts[1])),
            let base = try? AssetCode.validate(String(parts[0])), base == parts[0]
        else { return nil }
        return Market(base: base, quote: String(parts[1]))
    }
}
