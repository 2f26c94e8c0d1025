import AggCore
import AggUpbitShape

/// Upbit's event source: `markets`, its market list with details.
///
/// `/v1/market/all?isDetails=true` gives every market with `market_event`: `warning` (유의 종목,
/// designated, such as under delisting review) and `caution` (주의 종목) by cause
/// (`PRICE_FLUCTUATIONS`, `TRADING_VOLUME_SOARING`, `DEPOSIT_AMOUNT_SOARING`,
/// `GLOBAL_PRICE_DIFFERENCES`, `CONCENTRATION_OF_SMALL_ACCOUNTS`). Since 2026-01-29 a cause is
/// true at any of the levels 주의, 경고 and 위험, which the answer does not tell apart. Upbit has no
/// transfers source: its wallet status needs an API key, so every state is `unknown`.
enum UpbitEvents {
    /// `markets`: every 5 minutes by default; Upbit's `market` group allows 10 requests a second.
    static let markets = EventSource(
        id: EventSource.markets, reader: .adapter, interval: EventSource.listInterval,
        minimumInterval: .milliseconds(100),
        summary: "GET /v1/market/all?isDetails=true: listed, warning and caution per cause, per coin")

    static let decoder = UpbitShapeMarketEvents(
        venue: UpbitAdapter.descriptor.id, markets: APIRouter.markets, flags: .marketEvent)
}
