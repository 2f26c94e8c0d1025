import AggCore
import AggJSON

extension BinanceAdapter {
    /// Binance's public market streams, combined: subscribed with `SUBSCRIBE` messages, every
    /// event wrapped as `{"stream":"btcusdt@ticker","data":{...}}`
    /// (developers.binance.com/en/docs/products/spot/web-socket-streams). No keep-alive of
    /// ours: Binance pings every 20 s and the client's automatic pong answers it, and an
    /// unsolicited ping or pong would only spend the message quota. Binance drops a connection
    /// that has not answered a ping within a minute, so a minute without anything at all is a
    /// dead stream. Quotas (docs): 1,024 streams a connection; 5 incoming messages a second,
    /// pongs included, a close with 1008 past it (4 leave one for the pong); 300 connection
    /// attempts per 5 minutes per IP. Streams a message are undocumented: client libraries
    /// batch 200 to 250.
    static let stream = StreamDescriptor(
        url: "wss://stream.binance.com:9443/stream", keepAlive: .none, silenceLimit: .seconds(60),
        quotas: StreamQuotas(
            marketsPerConnection: 1024, marketsPerMessage: 200, messagesPerSecond: 4, connectionsPerWindow: 300,
            connectionWindow: .seconds(300)))
}

/// Binance's `@ticker` stream (the rolling 24-hour ticker, pushed every second while it
/// changes): `{"method":"SUBSCRIBE","params":["btcusdt@ticker"],"id":1}` subscribes (codes lower
/// case), `{"result":null,"id":1}` acknowledges, and each `24hrTicker` event decodes through
/// the REST ticker's mapping (`BinanceDecoding.quote` with the event's one-letter keys).
struct BinanceTickerStream: TickerStreamCodec {
    /// One `SUBSCRIBE` message per `marketsPerMessage` markets, numbered from 1.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        BinanceAdapter.stream.quotas.subscribeBatches(markets).enumerated().map { number, batch in
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
