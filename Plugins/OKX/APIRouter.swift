import AggCore

/// Every OKX API v5 endpoint agg uses; the only place that builds OKX URLs, and the map between
/// OKX's instrument ids (`BTC-USDT`: base first) and unified markets.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// What one request can ask for: the endpoints' largest sizes and their candle intervals.
    static let limits = FetchLimits(
        candles: APIRouter.maximumCandles, trades: APIRouter.maximumTrades, bookDepth: APIRouter.maximumBookSize,
        candleIntervals: APIRouter.candleIntervals)

    /// `GET /api/v5/market/ticker?instId=BTC-USDT`: one instrument's ticker, in a `data` array.
    case ticker(Market)
    /// `GET /api/v5/market/tickers?instType=SPOT`: every spot instrument's ticker.
    case spotTickers
    /// `GET /api/v5/public/instruments?instType=SPOT`: every spot instrument with its state.
    case spotInstruments
    /// `GET /api/v5/market/books?instId=&sz=`: up to 400 levels a side.
    case books(Market, size: Int)
    /// `GET /api/v5/market/trades?instId=&limit=`: up to 500 recent trades, newest first.
    case trades(Market, limit: Int)
    /// `GET /api/v5/market/candles?instId=&bar=&limit=`: up to 300 bars, newest first. The adapter
    /// builds it only for `candleIntervals`.
    case candles(Market, interval: CandleInterval, limit: Int)

    /// The quote currencies agg asks OKX for, the main one first.
    static let quoteCurrencies = ["USDT", "USDC", "BTC"]

    /// The most book levels a side one request returns.
    static let maximumBookSize = 400
    /// The most trades one request returns.
    static let maximumTrades = 500
    /// The most bars one request returns.
    static let maximumCandles = 300

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker(let market): "/api/v5/market/ticker?instId=\(Self.instrumentID(market))"
        case .spotTickers: "/api/v5/market/tickers?instType=SPOT"
        case .spotInstruments: "/api/v5/public/instruments?instType=SPOT"
        case .books(let market, let size): "/api/v5/market/books?instId=\(Self.instrumentID(market))&sz=\(size)"
        case .trades(let market, let limit): "/api/v5/market/trades?instId=\(Self.instrumentID(market))&limit=\(limit)"
        case .candles(let market, let interval, let limit):
            "/api/v5/market/candles?instId=\(Self.instrumentID(market))&bar=\(Self.bars[interval] ?? "1m")&limit=\(limit)"
        }
    }

    /// The bar lengths OKX offers among agg's (no 10-minute bars).
    static let candleIntervals = bars.intervals

    /// OKX's name for each bar length it offers. Bars of 6 hours and longer are asked for aligned
    /// to UTC (`6Hutc`); OKX's default aligns them to Hong Kong time.
    static let bars = CandleIntervalCodes([
        .oneMinute: "1m", .threeMinutes: "3m", .fiveMinutes: "5m", .thirtyMinutes: "30m", .oneHour: "1H",
        .sixHours: "6Hutc", .twelveHours: "12Hutc", .oneDay: "1Dutc",
    ])

    /// OKX's instrument id for `market`: `BTC-USDT`.
    static func instrumentID(_ market: Market) -> String {
        "\(market.base)-\(market.quote)"
    }

    /// How OKX writes a spot instrument in its lists: `BTC-USDT`.
    static let instrumentCode = MarketCode(separator: "-", quotes: quoteCurrencies)

    /// The unified market of an instrument id (`BTC-USDT` → `BTC/USDT`), or `nil` when it is not
    /// `BASE-QUOTE` with valid upper-case codes and a quote agg asks OKX for.
    static func market(fromInstrumentID id: String) -> Market? {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, AssetCode.isNormalized(String(parts[0])), quoteCurrencies.contains(String(parts[1]))
        else { return nil }
        return Market(base: String(parts[0]), quote: String(parts[1]))
    }
}
