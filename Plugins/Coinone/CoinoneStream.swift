import AggCore
import AggJSON

extension CoinoneAdapter {
    /// Coinone's public stream (docs.coinone.co.kr/reference/public-websocket).
    static let stream = StreamDescriptor(
        url: "wss://stream.coinone.co.kr",
        // {"request_type":"PING"} is answered by {"response_type":"PONG"} (docs); the docs drop
        // a socket 30 min after its last PING, but an idle one closed at ~60 s in repo
        // nemanull/arbitrage-observatory, docs/profiles/coinone/websocket.md §5; ccxt pings
        // every 20 s.
        keepAlive: .message(.text(#"{"request_type":"PING"}"#), every: .seconds(20)),
        // Tickers are trade-driven (a quiet pair went 32 s without a frame in that profile): the
        // PONGs, every 20 s, are what proves the socket alive.
        silenceLimit: .seconds(50),
        quotas: StreamQuotas(
            // Undocumented; 363 topics on one socket were served (that profile, §3).
            marketsPerConnection: 100,
            // One topic a subscribe message (docs).
            marketsPerMessage: 1,
            // Undocumented; a burst of 363 subscribes was not refused (that profile, §3).
            messagesPerSecond: 10,
            // At most 20 connections per IP, the 21st closed with 4290 (docs); attempts are
            // not limited in the docs: 20 a minute.
            connectionsPerWindow: 20, connectionWindow: .seconds(60)))
}

/// Coinone's ticker stream: one `SUBSCRIBE` per pair, frames dispatched on `response_type`.
///
/// Stream notes (docs.coinone.co.kr/reference/public-websocket and public-websocket-ticker;
/// repo nemanull/arbitrage-observatory, docs/profiles/coinone/websocket.md):
/// - `CONNECTED` greets the socket before any request; each subscribe gets a `SUBSCRIBED` ack
///   echoing its topic; `PONG` answers the keep-alive.
/// - `DATA` on channel `TICKER` carries REST's ticker fields in `data` (strings, `timestamp` a
///   JSON number, `id` a string of digits), with `ask_best_price`/`bid_best_price` `null` when
///   a side is empty. `high`, `low`, `first` and `last` are the UTC day's (REST's are rolling
///   24 h), volumes are 24 h.
/// - An unknown pair is first acknowledged, then refused by an `ERROR` frame naming no topic:
///   `{"response_type":"ERROR","error_code":160012,"message":"Invalid Topic"}`.
struct CoinoneTickerStream: TickerStreamCodec {
    /// One message per pair (the venue takes one topic a message), codes upper case.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        markets.map { market in
            .text(
                #"{"request_type":"SUBSCRIBE","channel":"TICKER","topic":{"quote_currency":"\#(market.quote)","#
                    + #""target_currency":"\#(market.base)"}}"#)
        }
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        do throws(JSONDecodingError) {
            let root = try message.jsonObject()
            switch try root["response_type"].string() {
            case "DATA":
                guard try root["channel"].optionalString() == "TICKER" else { return .control }
                var quote = try CoinoneDecoding.quote(root["data"], changeBasis: .sinceUTCMidnight)
                quote.receivedAt = receivedAt
                return .quotes([quote], skipped: [])
            case "ERROR":
                return .refused(
                    code: (try? root["error_code"].text()) ?? "", message: (try? root["message"].text()) ?? "")
            default:
                // CONNECTED, SUBSCRIBED, UNSUBSCRIBED, PONG, and types the venue adds.
                return .control
            }
        } catch {
            return .malformed(error.description)
        }
    }
}
