import AggCore

/// Every Upbit quotation endpoint agg uses; the only place that builds Upbit URLs, and the map
/// between Upbit's market codes (`KRW-BTC`: quote first) and unified markets (`BTC/KRW`).
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
public enum APIRouter: VenueRoute, Equatable {
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

    /// The quote currencies of Upbit's markets.
    public static let quoteCurrencies = ["KRW", "BTC", "USDT"]

    /// The path and query after the base URL.
    public var path: String {
        switch self {
        case .ticker(let markets):
            "/v1/ticker?markets=" + markets.map(Self.code).joined(separator: ",")
        case .allTickers(let quote): "/v1/ticker/all?quote_currencies=\(quote)"
        case .marketAll: "/v1/market/all"
        case .marketAllDetails: "/v1/market/all?isDetails=true"
        case .candles(let market, let interval, let count):
            "/v1/candles/\(Self.candlePath(interval) ?? "minutes/1")?market=\(Self.code(market))&count=\(count)"
        case .trades(let market, let count): "/v1/trades/ticks?market=\(Self.code(market))&count=\(count)"
        case .orderBook(let market, let count): "/v1/orderbook?markets=\(Self.code(market))&count=\(count)"
        }
    }

    /// The bar lengths Upbit offers (it has no 6 h or 12 h bars).
    public static let candleIntervals: [CandleInterval] = CandleInterval.allCases.filter { candlePath($0) != nil }

    /// The path segment of `interval`'s candles (`minutes/60`, `days`), or `nil` when Upbit has
    /// no such bars.
    static func candlePath(_ interval: CandleInterval) -> String? {
        switch interval {
        case .oneMinute: "minutes/1"
        case .threeMinutes: "minutes/3"
        case .fiveMinutes: "minutes/5"
        case .tenMinutes: "minutes/10"
        case .thirtyMinutes: "minutes/30"
        case .oneHour: "minutes/60"
        case .oneDay: "days"
        case .sixHours, .twelveHours: nil
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
