/// How a venue streams its tickers over WebSocket, as data: where, how to keep the socket alive,
/// when silence means a stalled stream, and the quotas the venue publishes. The core's stream
/// runner enforces all of it, so an adapter only encodes subscriptions and decodes messages
/// (`TickerStreamCodec`).
public struct StreamDescriptor: Sendable, Equatable {
    /// The public stream's URL (`wss://api.upbit.com/websocket/v1`); `AGG_<ID>_WS_URL`
    /// overrides it (`AdapterDescriptor.streamURLVariable`).
    public var url: String
    /// What agg sends to keep an idle socket open, and how often.
    public var keepAlive: StreamKeepAlive
    /// No message at all (data, heartbeat, pong) for this long means the stream has stalled:
    /// the runner drops it and reconnects.
    public var silenceLimit: Duration
    /// The venue's limits on connections, subscriptions and client messages.
    public var quotas: StreamQuotas

    public init(url: String, keepAlive: StreamKeepAlive, silenceLimit: Duration, quotas: StreamQuotas) {
        self.url = url
        self.keepAlive = keepAlive
        self.silenceLimit = silenceLimit
        self.quotas = quotas
    }
}

/// The keep-alive a venue expects from the client.
public enum StreamKeepAlive: Sendable, Equatable {
    /// A WebSocket ping frame every `every` (the venue answers with a pong).
    case pingFrame(every: Duration)
    /// An application message, such as Upbit's text `PING` or Coinone's
    /// `{"request_type":"PING"}`, every `every`.
    case message(StreamMessage, every: Duration)
    /// Nothing: the venue pings and the codec answers (`StreamReading.reply`), or the venue
    /// sends heartbeats of its own.
    case none

    /// How often the keep-alive is sent; `nil` for `.none`.
    public var interval: Duration? {
        switch self {
        case .pingFrame(let every), .message(_, let every): every
        case .none: nil
        }
    }
}

/// A venue's published stream limits. The runner never exceeds them: it spreads markets over
/// connections, cuts subscriptions into messages, paces what it sends, and paces reconnects.
public struct StreamQuotas: Sendable, Equatable {
    /// Markets one connection may carry (Binance: 1,024 streams).
    public var marketsPerConnection: Int
    /// Markets one subscribe message may name (Coinone: 1, one pair a message).
    public var marketsPerMessage: Int
    /// Messages the client may send a second on one connection, keep-alives included
    /// (Binance: 5).
    public var messagesPerSecond: Int
    /// Connection attempts allowed per `connectionWindow`, across all of agg's connections to
    /// the venue (Binance: 300 per 5 minutes).
    public var connectionsPerWindow: Int
    /// The window of `connectionsPerWindow`.
    public var connectionWindow: Duration
    /// The venue drops a connection that has not subscribed within this time (Coinbase: 5 s);
    /// `nil` when it does not.
    public var subscribeWithin: Duration?

    public init(
        marketsPerConnection: Int, marketsPerMessage: Int, messagesPerSecond: Int, connectionsPerWindow: Int,
        connectionWindow: Duration, subscribeWithin: Duration? = nil
    ) {
        self.marketsPerConnection = marketsPerConnection
        self.marketsPerMessage = marketsPerMessage
        self.messagesPerSecond = messagesPerSecond
        self.connectionsPerWindow = connectionsPerWindow
        self.connectionWindow = connectionWindow
        self.subscribeWithin = subscribeWithin
    }

    /// `markets` cut into subscribe messages' worth: at most `marketsPerMessage` each, in order.
    public func subscribeBatches(_ markets: [Market]) -> [[Market]] {
        Self.batches(markets, of: marketsPerMessage)
    }

    /// `items` in runs of at most `size` (at least one), in order; none for none.
    static func batches<Item>(_ items: [Item], of size: Int) -> [[Item]] {
        let size = max(1, size)
        return stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
    }
}
