import AggCore
import AggUpbitShape

extension BithumbAdapter {
    /// Bithumb's public ticker stream, the "v1 spec" of Upbit's request and tickers
    /// (apidocs.bithumb.com/reference/기본-정보).
    static let stream = StreamDescriptor(
        url: "wss://ws-api.bithumb.com/websocket/v1",
        // The text PING brings {"status":"UP"} every 10 s (apidocs.bithumb.com/reference/연결-관리);
        // the documented idle close is ~120 s, but idle sockets closed at 60 s in repo
        // nemanull/arbitrage-observatory, docs/profiles/bithumb/websocket.md §5.
        keepAlive: .message(.text("PING"), every: .seconds(20)),
        // Three missed status frames (the same profile recommends 30 s with the text PING).
        silenceLimit: .seconds(30),
        quotas: StreamQuotas(
            // Undocumented; 493 codes in one request were served (the same profile, §3).
            marketsPerConnection: 200,
            // A request replaces the socket's whole subscription: all its markets in one.
            marketsPerMessage: 200,
            // Undocumented: one a second, keep-alives included.
            messagesPerSecond: 1,
            // 10 connection requests a second per IP, 429 past it, a 10-minute block if it
            // persists (apidocs.bithumb.com/reference/기본-정보).
            connectionsPerWindow: 10, connectionWindow: .seconds(1)))
}

/// Bithumb's ticker stream: the shared Upbit-shaped codec with Bithumb's v1 markets. What
/// differs from Upbit is in the decoder: the time is the last trade's, from `trade_date` and
/// `trade_time` in Korean time (Upbit writes UTC) with the milliseconds of `trade_timestamp`
/// (a number or a string); `delisting_date` is `""` where Upbit sends `null` (not read); and,
/// as on Bithumb's v1 REST, no change basis (volumes from 00:00 KST, the previous close from
/// 00:00 UTC).
struct BithumbTickerStream: TickerStreamCodec {
    let shape = UpbitShapeTickerStream(decoder: Self.decoder)

    /// Bithumb's v1 decoder, reading the stream's Korean trade time.
    static let decoder: UpbitShapeDecoder = {
        var decoder = BithumbV1.decoder
        decoder.tickerTime = .lastTradeKST
        return decoder
    }()

    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        shape.subscribeMessages(for: markets)
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        shape.read(message, receivedAt: receivedAt)
    }
}
