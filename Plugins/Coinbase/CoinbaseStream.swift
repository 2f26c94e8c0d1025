import AggCore
import AggJSON

extension CoinbaseAdapter {
    /// Coinbase Exchange's public WebSocket feed: the `ticker` channel, with `heartbeat` to keep
    /// it alive (docs.cdp.coinbase.com/exchange/websocket-feed).
    static let stream = StreamDescriptor(
        url: "wss://ws-feed.exchange.coinbase.com",
        // Coinbase has no application ping; the `heartbeat` channel subscribed with the tickers
        // sends one message a product every second.
        keepAlive: .none,
        // With a heartbeat every second, 15 s without anything is a dead stream.
        silenceLimit: .seconds(15),
        quotas: StreamQuotas(
            // Undocumented per connection; one subscribe message carries them all (below).
            marketsPerConnection: 100,
            marketsPerMessage: 100,
            // 100 client messages a second per IP (docs), shared by every connection: 4 a
            // connection keeps 25 connections under it.
            messagesPerSecond: 4,
            // 8 requests a second per IP, bursts to 20 (docs).
            connectionsPerWindow: 8,
            connectionWindow: .seconds(1),
            // A connection that has not subscribed within 5 s is closed (docs).
            subscribeWithin: .seconds(5)
        )
    )
}

/// Coinbase Exchange's `ticker` channel: `{"type":"subscribe","product_ids":["BTC-USD"],
/// "channels":["ticker","heartbeat"]}` subscribes; messages are told apart by `type`:
/// `subscriptions` acknowledges, `heartbeat` keeps the feed alive, `error` refuses, and types
/// Coinbase adds are ignored. A `ticker` (one per trade) carries the REST ticker's `price` and
/// `time` (ISO-8601, microseconds) and the 24-hour stats REST asks for separately, so it decodes
/// through `CoinbaseDecoding.quote` with the stream's stats keys.
struct CoinbaseTickerStream: TickerStreamCodec {
    /// One subscribe message per `marketsPerMessage` products.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        CoinbaseAdapter.stream.quotas.subscribeBatches(markets).map { batch in
            let products = batch.map { JSONValue.string(APIRouter.productID($0)) }
            let message: JSONValue = [
                "type": "subscribe", "product_ids": .array(products), "channels": ["ticker", "heartbeat"],
            ]
            return .text(message.serialized())
        }
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        let root: JSONCursor
        do {
            root = try JSONCursor(parsing: message.bytes)
        } catch {
            return .malformed(error.description)
        }
        do throws(JSONDecodingError) {
            switch try root["type"].string() {
            case "ticker":
                let productField = root["product_id"]
                let product = try productField.string()
                guard let market = APIRouter.market(fromVenueSymbol: product) else {
                    throw productField.failure("unknown product '\(product.prefix(40))'")
                }
                var quote = try CoinbaseDecoding.quote(market: market, ticker: root, stats: root, statsKeys: .stream)
                quote.receivedAt = receivedAt
                return .quotes([quote], skipped: [])
            case "error":
                // `{"type":"error","message":"Failed to subscribe","reason":"BTC-XYZ is not a
                // valid product"}`: Coinbase has no codes; its short message stands as one.
                let summary = try root["message"].string()
                return .refused(code: summary, message: try root["reason"].optionalString() ?? summary)
            default:
                // `subscriptions`, `heartbeat`, and whatever Coinbase adds.
                return .control
            }
        } catch {
            return .malformed(error.description)
        }
    }
}
