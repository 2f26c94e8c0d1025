import AggCore
import AggUpbitShape

extension UpbitAdapter {
    /// Upbit's public ticker stream (docs.upbit.com/kr/reference/websocket-guide).
    static let stream = StreamDescriptor(
        url: "wss://api.upbit.com/websocket/v1",
        // The text PING keeps the socket open and brings {"status":"UP"} every 10 s (docs
        // websocket-best-practice); the documented idle close is ~120 s, but idle sockets closed
        // at 60.5 s in repo nemanull/arbitrage-observatory, docs/profiles/upbit/websocket.md.
        keepAlive: .message(.text("PING"), every: .seconds(20)),
        // Three missed status frames: a quiet market can send no ticker for minutes.
        silenceLimit: .seconds(30),
        quotas: StreamQuotas(
            // Undocumented; 200 codes keep one request small (Bithumb's copy served 493).
            marketsPerConnection: 200,
            // A request replaces the socket's whole subscription: all its markets in one.
            marketsPerMessage: 200,
            // 5 requests a second and 100 a minute per connection (docs reference/rate-limits):
            // one a second, keep-alives included, stays under both.
            messagesPerSecond: 1,
            // 5 connection requests a second per IP (docs reference/rate-limits).
            connectionsPerWindow: 5, connectionWindow: .seconds(1)))
}

/// Upbit's ticker stream: the shared Upbit-shaped codec with Upbit's decoder, whose tickers
/// carry `timestamp` (epoch ms) as REST's do.
struct UpbitTickerStream: TickerStreamCodec {
    let shape = UpbitShapeTickerStream(decoder: UpbitDecoding.shape)

    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        shape.subscribeMessages(for: markets)
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        shape.read(message, receivedAt: receivedAt)
    }
}
