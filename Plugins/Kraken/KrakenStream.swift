import AggCore
import AggJSON

extension KrakenAdapter {
    /// Kraken's public WebSocket API v2: the `ticker` channel
    /// (docs.kraken.com/exchange/api-reference/spot-websocket-v2/ticker). Once subscribed,
    /// Kraken sends `{"channel":"heartbeat"}` every second nothing else is sent, which keeps the
    /// socket open, so no ping of ours is needed (docs), and 15 s without anything is a dead
    /// stream. Markets a connection and a message are undocumented: one subscribe message
    /// carries a connection's 200, so the dynamic message rate ("EAPI:Rate limit exceeded"
    /// past it) is hardly spent at one a second. No connection cap is published, but about 150
    /// reconnects in a rolling 10 minutes from one IP trip Cloudflare's ban: 100 keeps under it.
    static let stream = StreamDescriptor(
        url: "wss://ws.kraken.com/v2", keepAlive: .none, silenceLimit: .seconds(15),
        quotas: StreamQuotas(
            marketsPerConnection: 200, marketsPerMessage: 200, messagesPerSecond: 1, connectionsPerWindow: 100,
            connectionWindow: .seconds(600)))
}

/// Kraken's v2 `ticker` channel: `{"method":"subscribe","params":{"channel":"ticker",
/// "symbol":["BTC/USD"]}}` subscribes. Kraken v2 names pairs with the usual codes (`BTC/USD`,
/// where REST says `XBTUSD`); the legacy names (`XBT/USD`) are read too, through `KrakenPairs`.
///
/// Messages carry a `channel` (`ticker`, `heartbeat`, `status`) or answer a `method`
/// (`subscribe`, one acknowledgement per symbol, `success` false with an `error` when refused;
/// `pong`). Ticker values are JSON numbers (REST sends strings), read exactly, exponent
/// included; `timestamp` is RFC 3339 and absent from older messages. `high`, `low` and `volume`
/// are over 24 hours, as the REST quote's are; the stream has no open, and its `change` is over
/// 24 hours where the REST quote's is since 00:00 UTC, so a streamed quote carries no change
/// rather than one on another basis.
struct KrakenTickerStream: TickerStreamCodec {
    /// One subscribe message per `marketsPerMessage` markets.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        KrakenAdapter.stream.quotas.subscribeBatches(markets).map { batch in
            let symbols = batch.map { JSONValue.string("\($0.base)/\($0.quote)") }
            let message: JSONValue = [
                "method": "subscribe", "params": ["channel": "ticker", "symbol": .array(symbols)],
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
        guard root.isObject else { return .malformed("$: expected an object, found \(root.kindDescription)") }
        do throws(JSONDecodingError) {
            if root["channel"].exists {
                guard try root["channel"].string() == "ticker" else { return .control }
                let answer = try Self.quotes(root["data"], receivedAt: receivedAt)
                return .quotes(answer.values, skipped: answer.skipped)
            }
            // A method's answer (`subscribe`, `pong`): refused when `success` is false.
            guard root["method"].exists || root["success"].exists else {
                throw root["channel"].failure("expected a channel or a method's answer")
            }
            guard root["success"].value == .bool(false) else { return .control }
            let error = try root["error"].string()
            // Kraken's errors are `Category:Message` (`EGeneral:Invalid arguments`) or a
            // sentence; as in REST answers, the whole text is the code.
            let parts = error.split(separator: ":", maxSplits: 1)
            let detail =
                parts.count == 2 && parts[0].hasPrefix("E") && !parts[0].contains(" ") ? String(parts[1]) : error
            return .refused(code: error, message: detail)
        } catch {
            return .malformed(error.description)
        }
    }

    /// The tickers of a message's `data` array, each decoded on its own; a pair in a quote
    /// agg does not ask Kraken for is left out.
    static func quotes(_ data: JSONCursor, receivedAt: Timestamp) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        try .elements(
            of: data, venue: KrakenAdapter.descriptor.id, nameKey: "symbol",
            market: { try? $0["symbol"].market(KrakenPairs.webSocketCode) }
        ) { ticker throws(JSONDecodingError) in
            guard let market = try ticker["symbol"].market(KrakenPairs.webSocketCode) else { return nil }
            return try quote(ticker, market: market, receivedAt: receivedAt)
        }
    }

    /// One ticker: `last`, 24-hour `high`, `low` and `volume`, and the RFC 3339 `timestamp`
    /// when the message has one.
    static func quote(_ ticker: JSONCursor, market: Market, receivedAt: Timestamp) throws(JSONDecodingError) -> Quote {
        let timeField = ticker["timestamp"]
        var timestamp: Timestamp?
        if let text = try timeField.optionalString() {
            guard let parsed = Timestamp(iso8601: text) else {
                throw timeField.failure("'\(text.prefix(40))' is not an RFC 3339 time")
            }
            timestamp = try timeField.venueTime(parsed)
        }
        return Quote(
            exchange: KrakenAdapter.descriptor.id,
            market: market,
            last: try ticker.numberPrice("last"),
            high: try ticker.optionalNumberPrice("high"),
            low: try ticker.optionalNumberPrice("low"),
            baseVolume: try ticker.optionalNumberAmount("volume"),
            timestamp: timestamp,
            receivedAt: receivedAt
        )
    }
}
