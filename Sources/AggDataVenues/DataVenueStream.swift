import AggCore
import AggJSON

/// A data venue's ticker stream, as its file declares it (`"stream"`, docs/data-venues.md):
/// where it is, what subscribes, the pings it answers, and where its frames hold tickers.
/// `DataVenueTickerStream` interprets it.
public struct DataVenueStream: Sendable {
    /// URL, keep-alive, silence limit and quotas, for the core's stream runner.
    public var descriptor: StreamDescriptor
    /// The subscribe message, with `{symbol}`, `{base}` and `{quote}` filled in when it names
    /// one market.
    public var subscribe: String
    /// Whether `subscribe` names one market (one message per market) or subscribes every
    /// ticker of the venue at once (one message per connection, frames filtered by the runner).
    public var scope: SubscribeScope
    /// Messages the venue sends that want an answer.
    public var replies: [ReplyRule]
    /// Where the venue's error code and message are; a frame with a code there is a refusal.
    public var errorCode: DataPath?
    public var errorMessage: DataPath?
    /// The frames that hold tickers, tried in order.
    public var tickers: [TickerFrame]
    /// The fields of one ticker, below the ticker object.
    public var fields: DataVenueDefinition.TickerFields
    /// How `fields.time` is written in frames (the stream's own, not the REST answers').
    public var time: VenueTimeFormat
    /// What the change is measured against in frames; `nil` when the frames carry no change of
    /// a basis the file states.
    public var changeBasis: ChangeBasis?

    /// What one subscribe message covers.
    public enum SubscribeScope: String, Sendable, CaseIterable {
        /// One message per market: the template names it.
        case market
        /// One message subscribes every ticker of the venue (GOPAX's `SubscribeToTickers`).
        case all
    }

    /// A venue message that wants an answer: one whose text starts with `prefix` is answered
    /// with `reply` followed by the rest of the message (Primus: `"primus::ping::<t>"` →
    /// `"primus::pong::<t>"`, quotes included).
    public struct ReplyRule: Sendable, Equatable {
        public var prefix: String
        public var reply: String
    }

    /// A frame that holds tickers: the value at `when` is `equals`, and the tickers are at
    /// `items`, an array (each ticker's symbol at `symbol`) or an object keyed by symbol.
    public struct TickerFrame: Sendable {
        public var when: DataPath
        public var equals: String
        public var items: DataPath
        public var symbol: DataPath?
    }

    static let keys = [
        "url", "subscribe", "scope", "keepAlive", "silenceSeconds", "quotas", "replies", "errors", "tickers", "fields",
        "time", "changeBasis",
    ]

    /// The declaration at `cursor`, checked strictly; `nil` when the file declares no stream.
    static func parse(_ cursor: JSONCursor) throws(JSONDecodingError) -> DataVenueStream? {
        guard cursor.isPresent else { return nil }
        typealias Definition = DataVenueDefinition
        try Definition.requireKeys(cursor, allowed: keys)
        let url = try cursor["url"].string()
        guard url.hasPrefix("ws://") || url.hasPrefix("wss://"), url.count > 6,
            url.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else { throw cursor["url"].failure("expected a ws:// or wss:// URL") }
        let scope = try Definition.choice(cursor["scope"], SubscribeScope.self) ?? .market
        let subscribe = try cursor["subscribe"].string()
        let names = subscribe.contains("{symbol}") || subscribe.contains("{base}") || subscribe.contains("{quote}")
        if scope == .market, !names {
            throw cursor["subscribe"].failure("a message per market must name it with {symbol}, or {base} and {quote}")
        }
        if scope == .all, names {
            throw cursor["subscribe"].failure("a message for every ticker (scope \"all\") names no market")
        }
        let quotas = cursor["quotas"]
        try Definition.requireKeys(
            quotas,
            allowed: [
                "marketsPerConnection", "messagesPerSecond", "connectionsPerWindow", "connectionWindowSeconds",
                "subscribeWithinSeconds",
            ])
        let perConnection = try count(quotas["marketsPerConnection"], upTo: 100_000)
        let descriptor = StreamDescriptor(
            url: url, keepAlive: try keepAlive(cursor["keepAlive"]),
            silenceLimit: .seconds(try count(cursor["silenceSeconds"], upTo: 3600)),
            quotas: StreamQuotas(
                marketsPerConnection: perConnection, marketsPerMessage: scope == .market ? 1 : perConnection,
                messagesPerSecond: try count(quotas["messagesPerSecond"], upTo: 1000),
                connectionsPerWindow: try count(quotas["connectionsPerWindow"], upTo: 100_000),
                connectionWindow: .seconds(try count(quotas["connectionWindowSeconds"], upTo: 86_400)),
                subscribeWithin: quotas["subscribeWithinSeconds"].isPresent
                    ? .seconds(try count(quotas["subscribeWithinSeconds"], upTo: 3600)) : nil))

        var replies: [ReplyRule] = []
        if cursor["replies"].isPresent {
            for rule in try cursor["replies"].elements() {
                try Definition.requireKeys(rule, allowed: ["prefix", "reply"])
                let prefix = try rule["prefix"].string()
                guard !prefix.isEmpty else {
                    throw rule["prefix"].failure("expected a prefix of one character or more")
                }
                replies.append(ReplyRule(prefix: prefix, reply: try rule["reply"].string()))
            }
        }
        let errors = cursor["errors"]
        if errors.isPresent { try Definition.requireKeys(errors, allowed: ["code", "message"]) }
        var tickers: [TickerFrame] = []
        for frame in try cursor["tickers"].elements() {
            try Definition.requireKeys(frame, allowed: ["when", "equals", "items", "symbol"])
            guard let when = try Definition.path(frame["when"]) else {
                throw frame["when"].failure("expected a JSON path")
            }
            tickers.append(
                TickerFrame(
                    when: when, equals: try frame["equals"].text(), items: try Definition.path(frame["items"]) ?? .root,
                    symbol: try Definition.path(frame["symbol"])))
        }
        guard !tickers.isEmpty else { throw cursor["tickers"].failure("expected at least one frame with tickers") }
        return DataVenueStream(
            descriptor: descriptor, subscribe: subscribe, scope: scope, replies: replies,
            errorCode: try Definition.path(errors["code"]), errorMessage: try Definition.path(errors["message"]),
            tickers: tickers, fields: try Definition.fields(cursor["fields"]),
            time: try Definition.timeFormat(cursor["time"]),
            changeBasis: try Definition.choice(cursor["changeBasis"], ChangeBasis.self))
    }

    /// `{"kind":"none"}`, `{"kind":"ping","everySeconds":20}` (a WebSocket ping frame) or
    /// `{"kind":"message","text":"PING","everySeconds":20}`.
    private static func keepAlive(_ cursor: JSONCursor) throws(JSONDecodingError) -> StreamKeepAlive {
        try DataVenueDefinition.requireKeys(cursor, allowed: ["kind", "text", "everySeconds"])
        switch try cursor["kind"].string() {
        case "none": return .none
        case "ping": return .pingFrame(every: .seconds(try count(cursor["everySeconds"], upTo: 3600)))
        case "message":
            return .message(
                .text(try cursor["text"].string()), every: .seconds(try count(cursor["everySeconds"], upTo: 3600)))
        case let other:
            throw cursor["kind"].failure("'\(other.prefix(20))' is not one of: none, ping, message")
        }
    }

    /// A whole number from 1 to `maximum`.
    private static func count(_ cursor: JSONCursor, upTo maximum: Int) throws(JSONDecodingError) -> Int {
        guard case .number = cursor.value, let value = try? cursor.int64(), value >= 1, value <= Int64(maximum) else {
            throw cursor.failure("expected a whole number from 1 to \(maximum)")
        }
        return Int(value)
    }
}
