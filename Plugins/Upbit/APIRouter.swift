import AggCore
import AggUpbitShape

/// Every Upbit quotation endpoint agg uses; the only place that builds Upbit URLs, and the map
/// between Upbit's market codes (`KRW-BTC`: quote first) and unified markets (`BTC/KRW`).
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /v1/ticker?markets=KRW-BTC,KRW-ETH`: tickers of one or more markets. One unknown
    /// code fails the whole request.
    case ticker([Market])
    /// `GET /v1/ticker/all?quote_currencies=KRW`: every ticker quoted in one currency, in one
    /// request.
    case allTickers(quote: String)
    /// `GET /v1/market/all`: every market, with Korean and English names.
    case marketAll
    /// `GET /v1/market/all?isDetails=true`: the same with each market's warning flags.
    case marketAllDetails
    /// `GET /v1/candles/minutes/{unit}?market=KRW-BTC&count=` or `GET /v1/candles/days?...`:
    /// up to 200 bars, newest first. The adapter builds it only for `candleIntervals`; the
    /// lengths Upbit lacks (6h, 12h) would fall back to 1-minute bars.
    case candles(Market, interval: CandleInterval, count: Int)
    /// `GET /v1/trades/ticks?market=KRW-BTC&count=`: up to 500 recent trades, newest first.
    case trades(Market, count: Int)
    /// `GET /v1/orderbook?markets=KRW-BTC&count=`: the order book, 1 to 30 levels a side
    /// (30 since 2025; before, always 15).
    case orderBook(Market, count: Int)
    /// `GET /v1/orderbook?markets=KRW-BTC,KRW-ETH&count=`: the books of several markets in one
    /// request (`markets` is a comma-separated list, as for tickers).
    case orderBooks([Market], count: Int)

    /// The quote currencies of Upbit's markets.
    static let quoteCurrencies = ["KRW", "BTC", "USDT"]

    /// Upbit's market codes, in the quote currencies it serves.
    static let markets = UpbitShapeMarkets(quoteCurrencies: quoteCurrencies)

    /// The path and query after the base URL: the shared Upbit-shaped paths, and Upbit's own
    /// all-tickers endpoint.
    var path: String {
        switch self {
        case .ticker(let markets): UpbitShapePath.ticker(markets)
        case .allTickers(let quote): "/v1/ticker/all?quote_currencies=\(quote)"
        case .marketAll: UpbitShapePath.marketAll
        case .marketAllDetails: UpbitShapePath.marketAllDetails
        case .candles(let market, let interval, let count):
            UpbitShapePath.candles(market, interval: interval, count: count)
        case .trades(let market, let count): UpbitShapePath.trades(market, count: count)
        case .orderBook(let market, let count): UpbitShapePath.orderBook(market, count: count)
        case .orderBooks(let markets, let count): UpbitShapePath.orderBooks(markets, count: count)
        }
    }

    /// The bar lengths Upbit offers (it has no 6 h or 12 h bars).
    static let candleIntervals = UpbitShapePath.candleIntervals

    /// Upbit's code for `market` (`KRW-BTC`), or `nil` when Upbit has no markets in its quote.
    static func venueSymbol(for market: Market) -> String? {
        markets.venueSymbol(for: market)
    }

    /// The unified market of an Upbit code (`KRW-BTC` → `BTC/KRW`), or `nil` when the code is
    /// not `QUOTE-BASE` with a quote Upbit serves and valid codes.
    static func market(fromVenueSymbol symbol: String) -> Market? {
        markets.market(fromCode: symbol)
    }
}
