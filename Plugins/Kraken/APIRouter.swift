import AggCore

/// Every Kraken public REST endpoint agg uses; the only place that builds Kraken URLs.
///
/// Requests name a pair by Kraken's alternative name (`XBTUSD`, see `KrakenPairs`). Codes
/// reaching the router come from `Market` values, which are validated (letters and digits only)
/// before any adapter sees them, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// What one request can ask for: the endpoints' largest sizes and their candle intervals.
    static let limits = FetchLimits(
        candles: APIRouter.maximumCandles, trades: APIRouter.maximumTrades, bookDepth: APIRouter.maximumDepth,
        candleIntervals: APIRouter.candleIntervals)

    /// `GET /0/public/Ticker?pair=XBTUSD`: one pair's ticker, keyed by Kraken's own pair name.
    case ticker(Market)
    /// `GET /0/public/Ticker`: every pair's ticker, in every quote currency.
    case allTickers
    /// `GET /0/public/AssetPairs`: every pair with its names and status.
    case assetPairs
    /// `GET /0/public/Depth?pair=&count=`: up to 500 levels a side.
    case depth(Market, count: Int)
    /// `GET /0/public/Trades?pair=&count=`: up to 1000 recent trades, oldest first.
    case trades(Market, count: Int)
    /// `GET /0/public/OHLC?pair=&interval=`: the last 720 bars, oldest first. The adapter builds
    /// it only for `candleIntervals`.
    case ohlc(Market, interval: CandleInterval)

    /// The most book levels a side one request returns.
    static let maximumDepth = 500
    /// The most trades one request returns.
    static let maximumTrades = 1000
    /// The bars one OHLC request returns (Kraken has no count; it sends the last 720).
    static let maximumCandles = 720

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker(let market): "/0/public/Ticker?pair=\(KrakenPairs.name(market))"
        case .allTickers: "/0/public/Ticker"
        case .assetPairs: "/0/public/AssetPairs"
        case .depth(let market, let count): "/0/public/Depth?pair=\(KrakenPairs.name(market))&count=\(count)"
        case .trades(let market, let count): "/0/public/Trades?pair=\(KrakenPairs.name(market))&count=\(count)"
        case .ohlc(let market, let interval):
            "/0/public/OHLC?pair=\(KrakenPairs.name(market))&interval=\(Self.intervalMinutes[interval] ?? 1)"
        }
    }

    /// The bar lengths Kraken offers among agg's (it has 15m, 4h, 1w and 15d too; no 3m, 10m,
    /// 6h or 12h).
    static let candleIntervals = intervalMinutes.intervals

    /// Kraken's interval for each bar length it offers, in minutes.
    static let intervalMinutes = CandleIntervalCodes([
        .oneMinute: 1, .fiveMinutes: 5, .thirtyMinutes: 30, .oneHour: 60, .oneDay: 1440,
    ])
}
