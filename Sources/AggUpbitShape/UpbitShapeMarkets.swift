import AggCore

/// The market codes of the Upbit-shaped quotation APIs (Upbit's, and Bithumb's v1, which copies
/// it): `KRW-BTC`, quote first, upper case.
public struct UpbitShapeMarkets: Sendable, Equatable {
    /// The quote currencies the venue's markets are in.
    public var quoteCurrencies: [String]

    public init(quoteCurrencies: [String]) {
        self.quoteCurrencies = quoteCurrencies
    }

    /// How the venue writes a market in its lists, for reading them entry by entry: `KRW-BTC`.
    public var code: MarketCode {
        MarketCode(separator: "-", quoteFirst: true, quotes: quoteCurrencies)
    }

    /// `QUOTE-BASE`, whatever the quote.
    public static func code(_ market: Market) -> String {
        "\(market.quote)-\(market.base)"
    }

    /// The venue's code for `market`, or `nil` when the venue has no markets in its quote.
    public func venueSymbol(for market: Market) -> String? {
        quoteCurrencies.contains(market.quote) ? Self.code(market) : nil
    }

    /// The unified market of a code (`KRW-BTC` → `BTC/KRW`), or `nil` when the code is not
    /// `QUOTE-BASE` with a quote the venue serves and valid, upper-case codes.
    public func market(fromCode code: String) -> Market? {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, quoteCurrencies.contains(String(parts[0])),
            let base = try? AssetCode.validate(String(parts[1])), base == parts[1]
        else { return nil }
        return Market(base: base, quote: String(parts[0]))
    }
}

/// The paths of the Upbit-shaped quotation endpoints, the same on Upbit and on Bithumb's v1.
///
/// Codes come from `Market` values, which are validated (letters and digits only) before any
/// adapter sees them, so nothing here needs escaping.
public enum UpbitShapePath {
    /// `/v1/ticker?markets=KRW-BTC,KRW-ETH`: one ticker per market, in one request.
    public static func ticker(_ markets: [Market]) -> String {
        "/v1/ticker?markets=" + markets.map(UpbitShapeMarkets.code).joined(separator: ",")
    }

    /// `/v1/market/all`: every market, with Korean and English names.
    public static let marketAll = "/v1/market/all"

    /// `/v1/market/all?isDetails=true`: the same with each market's warning flags.
    public static let marketAllDetails = "/v1/market/all?isDetails=true"

    /// `/v1/candles/minutes/{unit}?market=&count=` or `/v1/candles/days?...`: up to 200 bars,
    /// newest first. Only for `candleIntervals`; the lengths without bars (6h, 12h) would fall
    /// back to 1-minute bars.
    public static func candles(_ market: Market, interval: CandleInterval, count: Int) -> String {
        "/v1/candles/\(candlePath(interval) ?? "minutes/1")?market=\(UpbitShapeMarkets.code(market))&count=\(count)"
    }

    /// `/v1/trades/ticks?market=&count=`: recent trades, newest first.
    public static func trades(_ market: Market, count: Int) -> String {
        "/v1/trades/ticks?market=\(UpbitShapeMarkets.code(market))&count=\(count)"
    }

    /// `/v1/orderbook?markets=` with `&count=` when given: the book of one market.
    public static func orderBook(_ market: Market, count: Int?) -> String {
        "/v1/orderbook?markets=\(UpbitShapeMarkets.code(market))" + (count.map { "&count=\($0)" } ?? "")
    }

    /// `/v1/orderbook?markets=KRW-BTC,KRW-ETH` with `&count=` when given: the books of several
    /// markets in one request (one unknown code fails the whole request, as for tickers).
    public static func orderBooks(_ markets: [Market], count: Int?) -> String {
        "/v1/orderbook?markets=" + markets.map(UpbitShapeMarkets.code).joined(separator: ",")
            + (count.map { "&count=\($0)" } ?? "")
    }

    /// The most bars one candles request returns.
    public static let maximumCandles = 200

    /// The bar lengths these APIs offer among agg's (no 6 h or 12 h bars).
    public static let candleIntervals: [CandleInterval] = CandleInterval.allCases.filter { candlePath($0) != nil }

    /// The path segment of `interval`'s candles (`minutes/60`, `days`), or `nil` when there are
    /// no such bars.
    public static func candlePath(_ interval: CandleInterval) -> String? {
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
}
