import AggCore
import AggUpbitShape

/// Every Bithumb v1 (Upbit-shaped) public endpoint agg uses; the paths are the shared
/// Upbit-shaped ones (`UpbitShapePath`).
enum V1Router: VenueRoute, Equatable {
    /// `GET /v1/ticker?markets=KRW-BTC,...`: the tickers of up to `maximumTickerMarkets` markets.
    case ticker([Market])
    /// `GET /v1/market/all`: every market, with Korean and English names.
    case marketAll
    /// `GET /v1/candles/minutes/{unit}` or `/v1/candles/days`, up to 200 bars.
    case candles(Market, interval: CandleInterval, count: Int)
    /// `GET /v1/trades/ticks?market=&count=`.
    case trades(Market, count: Int)
    /// `GET /v1/orderbook?markets=`: the book (Bithumb's v1 takes no count).
    case orderBook(Market)
    /// `GET /v2/fee/inout/ALL`: deposit and withdrawal fees and minimums per coin and network.
    case feeInOut
    /// `GET /v1/market/all?isDetails=true`: every market with its `market_warning`.
    case marketAllDetails
    /// `GET /v1/market/virtual_asset_warning`: the warnings (경보제) per market and type.
    case virtualAssetWarning
    /// `GET /v1/notices?count=`: the newest notices (1 to 20).
    case notices(count: Int)

    /// The most markets one ticker request names.
    static let maximumTickerMarkets = 100

    /// Bithumb's v1 market codes, in the payment currencies agg asks Bithumb for.
    static let markets = UpbitShapeMarkets(quoteCurrencies: APIRouter.paymentCurrencies)

    var path: String {
        switch self {
        case .ticker(let markets): UpbitShapePath.ticker(markets)
        case .marketAll: UpbitShapePath.marketAll
        case .candles(let market, let interval, let count):
            UpbitShapePath.candles(market, interval: interval, count: count)
        case .trades(let market, let count): UpbitShapePath.trades(market, count: count)
        case .orderBook(let market): UpbitShapePath.orderBook(market, count: nil)
        case .feeInOut: "/v2/fee/inout/ALL"
        case .marketAllDetails: UpbitShapePath.marketAllDetails
        case .virtualAssetWarning: "/v1/market/virtual_asset_warning"
        case .notices(let count): "/v1/notices?count=\(count)"
        }
    }
}
