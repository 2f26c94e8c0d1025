import AggCore
import AggJSON

extension OKXAdapter {
    /// OKX's public WebSocket, API v5: the `tickers` channel (www.okx.com/docs-v5/en, "WebSocket").
    static let stream = StreamDescriptor(
        url: "wss://ws.okx.com:8443/ws/v5/public",
        // OKX closes a connection that has pushed nothing for 30 s; a client that has heard
        // nothing for less than that sends the text `ping` and gets `pong` (docs).
        keepAlive: .message(.text("ping"), every: .seconds(20)),
        // A ping every 20 s is answered at once, so 30 s without anything is a dead stream
        // (and OKX would have closed it by then).
        silenceLimit: .seconds(30),
        quotas: StreamQuotas(
            // Undocumented per connection; one subscribe message carries them all (below).
            marketsPerConnection: 300,
            // One message takes many args, at most 64 KB in all (docs): 300 instruments are
            // about 13 KB. OKX counts a message as one operation whatever it holds, of 480 an
            // hour per connection (a token bucket that starts full, docs), so subscribing a
            // connection's markets in one message costs one of them.
            marketsPerMessage: 300,
            // Undocumented for messages on a connection; OKX's 3 a second for connections is
            // the bound.
            messagesPerSecond: 3,
            // 3 connection requests a second per IP (docs).
            connectionsPerWindow: 3,
            connectionWindow: .seconds(1)
        )
    )
}

/// OKX's `tickers` channel: `{"op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}`
/// subscribes, `{"event":"subscribe",...}` acknowledges each arg, `{"event":"error","code":"60012",
/// "msg":"..."}` refuses, and the text `pong` answers the keep-alive. A push is
/// `{"arg":{...},"data":[ticker, ...]}` with the REST ticker's fields, every value a string, so
/// it decodes through `OKXDecoding.quotes`: an entry that does not decode costs only itself.
struct OKXTickerStream: TickerStreamCodec {
    /// One subscribe message per `marketsPerMessage` markets, one arg per instrument.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        OKXAdapter.stream.quotas.subscribeBatches(markets).map { batch in
            let args: [JSONValue] = batch.map {
                ["channel": "tickers", "instId": .string(APIRouter.instrumentID($0))]
            }
            let message: JSONValue = ["op": "subscribe", "args": .array(args)]
            return .text(message.serialized())
        }
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        if message == .text("pong") { return .control }
        let root: JSONCursor
        do {
            root = try JSONCursor(parsing: message.bytes)
        } catch {
            return .malformed(error.description)
        }
        guard root.isObject else { return .malformed("$: expected an object, found \(root.kindDescription)") }
        do throws(JSONDecodingError) {
            if root["event"].exists {
                // `subscribe`, `unsubscribe`, `notice`, `channel-conn-count`, and `error`.
                guard try root["event"].string() == "error" else { return .control }
                return .refused(code: try root["code"].text(), message: try root["msg"].optionalString() ?? "")
            }
            guard try root["arg"]["channel"].string() == "tickers" else { return .control }
            let answer = try OKXDecoding.quotes(root["data"])
            return .quotes(
                answer.values.map { quote in
                    var quote = quote
                    quote.receivedAt = receivedAt
                    return quote
                }, skipped: answer.skipped)
        } catch {
            return .malformed(error.description)
        }
    }
}
