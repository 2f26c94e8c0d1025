import AggCore

/// Every Bithumb public endpoint agg uses; the only place that builds Bithumb URLs.
///
/// Codes reaching the router come from `Market` values, which are validated (letters and digits
/// only) before any adapter sees them, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /public/ticker/{COIN}_{PAY}`: one ticker.
    case ticker(Market)
    /// `GET /public/ticker/ALL_{PAY}`: every ticker quoted in `payment`.
    case allTickers(payment: String)
    /// `GET /public/orderbook/{COIN}_{PAY}?count=`: 1 to 30 levels a side.
    case orderBook(Market, count: Int)
    /// `GET /public/transaction_history/{COIN}_{PAY}?count=`: 1 to 100 recent trades.
    case transactionHistory(Market, count: Int)
    /// `GET /public/candlestick/{COIN}_{PAY}/{interval}`.
    case candlestick(Market, interval: CandleInterval)
    /// `GET /public/assetsstatus/multichain/ALL`: deposits and withdrawals open or not, per coin
    /// and network.
    case assetsStatus

    /// The payment (quote) currencies Bithumb's public API serves.
    static let paymentCurrencies = ["KRW", "BTC"]

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker(let market): "/public/ticker/\(Self.pair(market))"
        case .allTickers(let payment): "/public/ticker/ALL_\(payment)"
        case .orderBook(let market, let count): "/public/orderbook/\(Self.pair(market))?count=\(count)"
        case .transactionHistory(let market, let count):
            "/public/transaction_history/\(Self.pair(market))?count=\(count)"
        case .candlestick(let market, let interval):
            "/public/candlestick/\(Self.pair(market))/\(interval.rawValue)"
        case .assetsStatus: "/public/assetsstatus/multichain/ALL"
        }
    }

    /// Bithumb's market id: `BTC_KRW`.
    static func pair(_ market: Market) -> String {
        "\(market.base)_\(market.quote)"
    }
}
