import AggCore

/// Every Coinone public (v2) endpoint agg uses; the only place that builds Coinone URLs, and the
/// map between Coinone's currency pairs (a quote and a target, `KRW` and `BTC`) and unified
/// markets (`BTC/KRW`).
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping. Requests name codes in
/// upper case; answers name them in lower case (`"target_currency": "btc"`).
enum APIRouter: VenueRoute, Equatable {
    /// What one request can ask for: the endpoints' largest sizes and their candle intervals.
    static let limits = FetchLimits(
        candles: APIRouter.maximumChartSize, trades: APIRouter.tradeSizes.last ?? 200,
        bookDepth: APIRouter.bookSizes.last ?? 16, candleIntervals: APIRouter.candleIntervals)

    /// `GET /public/v2/ticker_new/{QUOTE}/{TARGET}`: one ticker, in a `tickers` array.
    case ticker(Market)
    /// `GET /public/v2/ticker_new/{QUOTE}`: every ticker quoted in `quote`.
    case allTickers(quote: String)
    /// `GET /public/v2/markets/{QUOTE}`: every market quoted in `quote`.
    case markets(quote: String)
    /// `GET /public/v2/orderbook/{QUOTE}/{TARGET}?size=`: `size` is one of `bookSizes`.
    case orderBook(Market, size: Int)
    /// `GET /public/v2/trades/{QUOTE}/{TARGET}?size=`: `size` is one of `tradeSizes`.
    case trades(Market, size: Int)
    /// `GET /public/v2/chart/{QUOTE}/{TARGET}?interval=&size=`: up to 500 bars. The adapter
    /// builds it only for `candleIntervals`.
    case chart(Market, interval: CandleInterval, size: Int)
    /// `GET /public/v2/currencies`: every currency with its deposit and withdrawal status and
    /// withdrawal fee.
    case currencies

    /// The quote currencies of Coinone's markets.
    static let quoteCurrencies = ["KRW"]

    /// The order book sizes Coinone accepts; any other is refused with error 107.
    static let bookSizes = [5, 10, 15, 16]

    /// The trade counts Coinone accepts.
    static let tradeSizes = [10, 50, 100, 150, 200]

    /// The most bars one chart request returns.
    static let maximumChartSize = 500

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker(let market): "/public/v2/ticker_new/\(Self.pair(market))"
        case .allTickers(let quote): "/public/v2/ticker_new/\(quote)"
        case .markets(let quote): "/public/v2/markets/\(quote)"
        case .orderBook(let market, let size): "/public/v2/orderbook/\(Self.pair(market))?size=\(size)"
        case .trades(let market, let size): "/public/v2/trades/\(Self.pair(market))?size=\(size)"
        case .chart(let market, let interval, let size):
            "/public/v2/chart/\(Self.pair(market))?interval=\(Self.intervalCodes[interval] ?? "1m")&size=\(size)"
        case .currencies: "/public/v2/currencies"
        }
    }

    /// `QUOTE/TARGET`, the two path segments naming a market.
    static func pair(_ market: Market) -> String {
        "\(market.quote)/\(market.base)"
    }

    /// The bar lengths Coinone offers among agg's (it has 15m, 2h, 4h and 1w too, and no 12h).
    static let candleIntervals = intervalCodes.intervals

    /// Coinone's name for each bar length it offers.
    static let intervalCodes = CandleIntervalCodes([
        .oneMinute: "1m", .threeMinutes: "3m", .fiveMinutes: "5m", .tenMinutes: "10m", .thirtyMinutes: "30m",
        .oneHour: "1h", .sixHours: "6h", .oneDay: "1d",
    ])

    /// The smallest of `sizes` that holds `count` rows, or the largest when none does.
    static func size(toHold count: Int, from sizes: [Int]) -> Int {
        sizes.first { $0 >= count } ?? sizes.last ?? count
    }

    /// The unified market of a quote and a target code as Coinone writes them (`krw`, `btc`), or
    /// `nil` when either is not a valid code or the quote is not one Coinone serves.
    static func market(quote: String, target: String) -> Market? {
        guard let base = try? AssetCode.validate(target), let quote = try? AssetCode.validate(quote),
            quoteCurrencies.contains(quote)
        else { return nil }
        return Market(base: base, quote: quote)
    }
}
