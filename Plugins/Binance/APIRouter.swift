import AggCore

/// Every Binance spot endpoint agg uses; the only place that builds Binance URLs, and the map
/// between Binance's symbols (`BTCUSDT`: base and quote run together) and unified markets.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /api/v3/ticker/24hr?symbol=BTCUSDT`: the rolling 24-hour ticker of one symbol.
    case ticker24h(Market)
    /// `GET /api/v3/exchangeInfo`: every symbol with its base and quote asset.
    case exchangeInfo
    /// `GET /api/v3/ticker/24hr` without a symbol: every symbol's 24-hour ticker in one answer
    /// (about 1 MB), at a request weight of 80 instead of 2.
    case allTickers24h
    /// `GET /api/v3/klines?symbol=BTCUSDT&interval=1m&limit=`: up to 1000 bars, oldest first.
    /// The adapter builds it only for `candleIntervals`.
    case klines(Market, interval: CandleInterval, limit: Int)
    /// `GET /api/v3/trades?symbol=BTCUSDT&limit=`: up to 1000 recent trades, oldest first.
    case trades(Market, limit: Int)
    /// `GET /api/v3/depth?symbol=BTCUSDT&limit=`: the order book, up to 5000 levels a side.
    case depth(Market, limit: Int)

    /// The quote currencies agg asks Binance for, the main one first.
    static let quoteCurrencies = ["USDT", "USDC", "FDUSD", "BTC", "ETH", "BNB", "EUR"]

    /// The quote currencies by length, longest first, for splitting symbols: `FDUSD` must be
    /// tried before a shorter code that could end the same symbol.
    static let splitOrder = quoteCurrencies.sorted { $0.count > $1.count }

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker24h(let market): "/api/v3/ticker/24hr?symbol=\(market.base)\(market.quote)"
        case .exchangeInfo: "/api/v3/exchangeInfo"
        case .allTickers24h: "/api/v3/ticker/24hr"
        case .klines(let market, let interval, let limit):
            "/api/v3/klines?symbol=\(market.base)\(market.quote)&interval=\(Self.intervalCodes[interval] ?? "1m")&limit=\(limit)"
        case .trades(let market, let limit): "/api/v3/trades?symbol=\(market.base)\(market.quote)&limit=\(limit)"
        case .depth(let market, let limit): "/api/v3/depth?symbol=\(market.base)\(market.quote)&limit=\(limit)"
        }
    }

    /// The bar lengths Binance offers among agg's (it has no 10-minute bars).
    static let candleIntervals = intervalCodes.intervals

    /// Binance's name for each bar length it offers (`1m`, `1d`).
    static let intervalCodes = CandleIntervalCodes([
        .oneMinute: "1m", .threeMinutes: "3m", .fiveMinutes: "5m", .thirtyMinutes: "30m", .oneHour: "1h",
        .sixHours: "6h", .twelveHours: "12h", .oneDay: "1d",
    ])

    /// Symbols quoted in AEUR, a euro stablecoin, end like EUR symbols (`BTCAEUR`, against
    /// `ADAEUR`): split at EUR they would make up a coin (`BTCA`). Binance quotes these three
    /// assets in AEUR; their symbols are never read as EUR markets.
    static let aeurSymbols: Set<String> = ["BTCAEUR", "ETHAEUR", "USDTAEUR"]

    /// Binance's symbol for `market` (`BTCUSDT`), or `nil` when agg does not ask Binance for
    /// markets in its quote.
    static func venueSymbol(for market: Market) -> String? {
        quoteCurrencies.contains(market.quote) ? market.base + market.quote : nil
    }

    /// The unified market of a Binance symbol, split at the longest known quote currency it ends
    /// with (`ETHBTC` → `ETH/BTC`, `BTCFDUSD` → `BTC/FDUSD`), or `nil` when none fits (or the
    /// symbol is one of `aeurSymbols`).
    static func market(fromVenueSymbol symbol: String) -> Market? {
        guard !aeurSymbols.contains(symbol) else { return nil }
        for quote in splitOrder where symbol.hasSuffix(quote) && symbol.count > quote.count {
            let base = String(symbol.dropLast(quote.count))
            guard (try? AssetCode.validate(base)) == base else { return nil }
            return Market(base: base, quote: quote)
        }
        return nil
    }
}
