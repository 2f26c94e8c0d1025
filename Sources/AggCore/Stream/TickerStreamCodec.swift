/// One WebSocket message, either way: text or binary (Upbit and Bithumb send their JSON in
/// binary frames).
public enum StreamMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])

    /// The message's bytes (UTF-8 for text).
    public var bytes: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .binary(let bytes): bytes
        }
    }
}

/// What one message from a venue's stream says.
public enum StreamReading: Sendable, Equatable {
    /// Tickers, one or more markets', with the entries of the message that did not decode
    /// (each costs only itself, as in `BulkAnswer`).
    case quotes([Quote], skipped: [SkippedEntry])
    /// A message with nothing to show: a subscription's acknowledgement, a greeting, a status,
    /// a heartbeat, a pong, or a message type the codec does not know (venues add types).
    case control
    /// The venue asks for an answer, to be sent at once (GOPAX's `"primus::ping::<t>"` wants
    /// `"primus::pong::<t>"`).
    case reply(StreamMessage)
    /// The venue's own error message (`{"error":{"name":"NO_CODES",...}}`), with its code and
    /// text; a close often follows.
    case refused(code: String, message: String)
    /// The message is not what the venue sends (not JSON, a ticker without its price, a price
    /// that breaks the grammar): the reason, with the JSON path. It costs only this message.
    case malformed(String)
}

/// A venue's ticker stream in Swift: the messages that subscribe markets, and the reading of
/// every message the venue sends. It does no I/O and keeps no state: the core's stream runner
/// connects, subscribes, keeps the socket alive, reconnects and enforces the quotas of the
/// venue's `StreamDescriptor`.
///
/// Prices keep the venue's text (string or JSON number token, exponent included) through the
/// strict decimal grammar of `AggJSON`: no `Double` anywhere on the path.
public protocol TickerStreamCodec: Sendable {
    /// The messages that subscribe `markets` on one connection, in the order to send them.
    /// The runner passes at most `quotas.marketsPerConnection` markets and sends each message
    /// within `quotas.messagesPerSecond`; a codec whose venue takes one market a message
    /// returns one message per market.
    func subscribeMessages(for markets: [Market]) -> [StreamMessage]

    /// Reads one message that arrived at `receivedAt` (agg's clock). Quotes carry the venue's
    /// own time in `timestamp` when the message has one, and `receivedAt`.
    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading
}
