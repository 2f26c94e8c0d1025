import AggCore

/// Every Korbit Open API v2 endpoint agg uses; the only place that builds Korbit URLs, and the
/// map between Korbit's symbols (`btc_krw`: base and quote, lower case) and unified markets.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping; lower-casing them keeps
/// them ASCII.
enum APIRouter: VenueRoute, Equatable {
    /// What one request can ask for: the endpoints' largest sizes and their candle intervals.
    static let limits = FetchLimits(
        candles: APIRouter.maximumCandles, trades: APIRouter.maximumTrades, bookDepth: APIRouter.bookDepth,
        candleIntervals: APIRouter.candleIntervals)

    /// `GET /v2/tickers?symbol=btc_krw,eth_krw`: the tickers of the symbols given; an unknown
    /// symbol is left out of the answer rather than failing it.
    case tickers([Market])
    /// `GET /v2/tickers`: every pair's ticker, stopped pairs included.
    case allTickers
    /// `GET /v2/currencyPairs`: every pair with its status (`launched` or `stopped`).
    case currencyPairs
    /// `GET /v2/orderbook?symbol=`: the book, always 30 levels a side.
    case orderBook(Market)
    /// `GET /v2/trades?symbol=&limit=`: up to 500 recent trades.
    case trades(Market, limit: Int)
    /// `GET /v2/candles?symbol=&interval=&limit=`: up to 200 bars. The adapter builds it only
    /// for `candleIntervals`.
    case candles(Market, interval: CandleInterval, limit: Int)
    /// `GET /v2/currencies`: every currency with its networks, each with its deposit and
    /// withdrawal status and withdrawal fee.
    case currencies

    /// The quote currencies of Korbit's markets.
    static let quoteCurrencies = ["KRW"]

    /// The most trades one request returns.
    static let maximumTrades = 500
    /// The most bars one request returns.
    static let maximumCandles = 200
    /// The book levels a side Korbit always sends.
    static let bookDepth = 30

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .tickers(let markets): "/v2/tickers?symbol=" + markets.map(Self.symbol).joined(separator: ",")
        case .allTickers: "/v2/tickers"
        case .currencyPairs: "/v2/currencyPairs"
        case .orderBook(let market): "/v2/orderbook?symbol=\(Self.symbol(market))"
        case .trades(let market, let limit): "/v2/trades?symbol=\(Self.symbol(market))&limit=\(limit)"
        case .currencies: "/v2/currencies"
        case .candles(let market, let interval, let limit):
            "/v2/candles?symbol=\(Self.symbol(market))&interval=\(Self.intervalCodes[interval] ?? "1")&limit=\(limit)"
        }
    }

    /// The bar lengths Korbit offers among agg's (it has 15m, 4h and 1W too; no 3m, 10m, 6h or
    /// 12h).
    static let candleIntervals = intervalCodes.intervals

    /// Korbit's name for each bar length it offers (minutes, or `1D`).
    static let intervalCodes = CandleIntervalCodes([
        .oneMinute: "1", .fiveMinutes: "5", .thirtyMinutes: "30", .oneHour: "60", .oneDay: "1D",
    ])

    /// Korbit's symbol for `market`: `btc_krw`.
    static func symbol(_ market: Market) -> String {
        "\(market.base.lowercased())_\(market.quote.lowercased())"
    }

    /// How Korbit writes a pair in its lists: `btc_krw`.
    static let symbolCode = MarketCode(separator: "_", quotes: quoteCurrencies, lowercase: true)

    /// The unified market of a Korbit symbol (`btc_krw` → `BTC/KRW`), or `nil` when it is not
    /// `base_quote` with valid codes and a quote Korbit serves.
    static func market(fromSymbol symbol: String) -> Market? {
        let parts = symbol.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, let base = try? AssetCode.validate(String(parts[0])),
            let quote = try? AssetCode.validate(String(parts[1])), quoteCurrencies.contains(quote)
        else { return nil }
        return Market(base: base, quote: quote)
    }
}
