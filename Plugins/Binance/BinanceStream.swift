import AggCore
import AggJSON

extension BinanceAdapter {
    /// Binance's public market streams, combined: subscribed with `SUBSCRIBE` messages, every
    /// event wrapped as `{"stream":"btcusdt@ticker","data":{...}}`
    /// (developers.binance.com/en/docs/products/spot/web-socket-streams).
    static let stream = StreamDescriptor(
        url: "wss://stream.binance.com:9443/stream",
        // Binance pings every 20 s and the client's automatic pong answers it; an unsolicited
        // ping or pong of ours would only spend the message quota (docs).
        keepAlive: .none,
        // Binance drops a connection that has not answered a ping within a minute; with a ping
        // every 20 s, a minute without anything at all is a dead stream.
        silenceLimit: .seconds(60),
        quotas: StreamQuotas(
            // 1,024 streams a connection (docs).
            marketsPerConnection: 1024,
            // Undocumented; client libraries batch 200 to 250 streams a message.
            marketsPerMessage: 200,
            // 5 incoming messages a second, pongs included (docs; past it, a close with 1008):
            // one is left for the pong to Binance's ping.
            messagesPerSecond: 4,
            // 300 connection attempts per 5 minutes per IP (docs).
            connectionsPerWindow: 300,
            connectionWindow: .seconds(300)
        )
    )
}

/// Binance's `@ticker` stream (the rolling 24-hour ticker, pushed every second while it
/// changes): `{"method":"SUBSCRIBE","params":["btcusdt@ticker"],"id":1}` subscribes (codes lower
/// case), `{"result":null,"id":1}` acknowledges, and each `24hrTicker` event decodes through
/// the REST ticker's mapping (`BinanceDecoding.quote` with the event's one-letter keys).
struct BinanceTickerStream: TickerStreamCodec {
    /// One `SUBSCRIBE` message per `marketsPerMessage` markets, numbered from 1.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        let size = max(1, BinanceAdapter.stream.quotas.marketsPerMessage)
        return stride(from: 0, to: markets.count, by: size).enumerated().map { number, start in
            let batch = markets[start..<min(start + size, markets.count)]
            let message: JSONValue = [
                "method": "SUBSCRIBE",
                "params": .array(batch.map { .string(Self.streamName($0)) }),
                "id": .number(String(number + 1)),
            ]
            return .text(message.serialized())
        }
    }

    /// The stream of `market`'s ticker: `btcusdt@ticker`.
    static func streamName(_ market: Market) -> String {
        (market.base + market.quote).lowercased() + "@ticker"
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        let root: JSONCursor
        do {
            root = try JSONCursor(parsing: message.bytes)
        } catch {
            return .malformed(error.description)
        }
        guard root.isObject else { return .malformed("$: expected an object, found \(root.kindDescription)") }
        // `{"result":null,"id":1}` answers a SUBSCRIBE (a list answers LIST_SUBSCRIPTIONS).
        if root["result"].exists, root["id"].exists { return .control }
        // `{"error":{"code":2,"msg":"Invalid request: ..."},"id":1}`, or the older flat
        // `{"code":2,"msg":"...","id":1}`.
        if let refusal = Self.refusal(root) { return refusal }
        let event = root["data"].exists ? root["data"] : root
        do throws(JSONDecodingError) {
            switch try event["e"].string() {
            case "24hrTicker":
                var quote = try BinanceDecoding.quote(event, fields: BinanceDecoding.streamTickerFields, symbol: "s")
                quote.receivedAt = receivedAt
                return .quotes([quote], skipped: [])
            default:
                // Other events (another stream's, `serverShutdown`) carry no ticker.
                return .control
            }
        } catch {
            return .malformed(error.description)
        }
    }

    /// Binance's error answer to a request, if `root` is one.
    private static func refusal(_ root: JSONCursor) -> StreamReading? {
        let error = root["error"].isPresent ? root["error"] : root
        guard let code = try? error["code"].text(), let message = try? error["msg"].text() else { return nil }
        return .refused(code: code, message: message)
    }
}
