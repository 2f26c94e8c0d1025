import AggCore
import AggUpbitShape

extension UpbitAdapter {
    /// Upbit's public ticker stream (docs.upbit.com/kr/reference/websocket-guide), on the rules
    /// the Upbit-shaped streams share; 5 connection requests a second per IP (docs
    /// reference/rate-limits).
    static let stream = UpbitShapeTickerStream.descriptor(
        url: "wss://api.upbit.com/websocket/v1", connectionsPerSecond: 5)

    /// Upbit's ticker stream: the shared Upbit-shaped codec with Upbit's decoder, whose tickers
    /// carry `timestamp` (epoch ms) as REST's do.
    static let tickerCodec = UpbitShapeTickerStream(decoder: UpbitDecoding.shape)
}
