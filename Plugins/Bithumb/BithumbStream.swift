import AggCore
import AggUpbitShape

extension BithumbAdapter {
    /// Bithumb's public ticker stream, the "v1 spec" of Upbit's request and tickers
    /// (apidocs.bithumb.com/reference/기본-정보), on the rules the Upbit-shaped streams share
    /// (its text PING brings {"status":"UP"} every 10 s, apidocs.bithumb.com/reference/연결-관리);
    /// 10 connection requests a second per IP, 429 past it, a 10-minute block if it persists.
    static let stream = UpbitShapeTickerStream.descriptor(
        url: "wss://ws-api.bithumb.com/websocket/v1", connectionsPerSecond: 10)

    /// Bithumb's ticker stream: the shared Upbit-shaped codec with Bithumb's v1 markets. What
    /// differs from Upbit is in the decoder: the time is the last trade's, from `trade_date` and
    /// `trade_time` in Korean time (Upbit writes UTC) with the milliseconds of `trade_timestamp`
    /// (a number or a string); `delisting_date` is `""` where Upbit sends `null` (not read); and,
    /// as on Bithumb's v1 REST, no change basis (volumes from 00:00 KST, the previous close from
    /// 00:00 UTC).
    static let tickerCodec: UpbitShapeTickerStream = {
        var decoder = BithumbV1.decoder
        decoder.tickerTime = .lastTradeKST
        return UpbitShapeTickerStream(decoder: decoder)
    }()
}
