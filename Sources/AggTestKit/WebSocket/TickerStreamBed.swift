import AggCore

/// One venue's ticker codec on a real WebSocket client against loopback servers playing the
/// venue's stream scripts: the runs every venue's stream tests make, given the venue's data once.
public struct TickerStreamBed: Sendable {
    /// The venue's codec.
    public let codec: any TickerStreamCodec
    /// The venue's id, the folder of its scripts in `Fixtures/<venue>/stream/`.
    public let venue: String
    /// The client under test (the real `WebSocketClient`).
    public let connector: any WebSocketConnector
    /// When every message counts as received.
    public let receivedAt: Timestamp

    /// A bed for `codec` of `venue`, connecting with `connector`, every message received at `receivedAt`.
    public init(
        _ codec: any TickerStreamCodec, venue: String, connector: any WebSocketConnector, receivedAt: Timestamp
    ) {
        self.codec = codec
        self.venue = venue
        self.connector = connector
        self.receivedAt = receivedAt
    }

    /// `TickerStreamRun.play` against a new loopback server playing
    /// `Fixtures/<venue>/stream/<name>.jsonl`, for `markets`, until `until` holds or the stream ends.
    public func play(
        _ name: String, markets: [Market], until: (TickerStreamTranscript) -> Bool
    ) async throws -> TickerStreamRun {
        let server = try WebSocketLoopbackServer(script: .fixture(venue: venue, name: name))
        return try await TickerStreamRun.play(
            codec, markets: markets, server: server, connector: connector, receivedAt: receivedAt, until: until)
    }

    /// The venue's `ticker.jsonl` for `markets`, until `count` quotes have come or the stream ends.
    public func ticker(markets: [Market], quotes count: Int) async throws -> TickerStreamRun {
        try await play("ticker", markets: markets, until: { $0.quotes.count == count })
    }

    /// The venue's `faults.jsonl` for `markets`, until `count` readings have come (`nil`: until
    /// the stream ends).
    public func faults(markets: [Market], readings count: Int? = nil) async throws -> TickerStreamRun {
        try await play("faults", markets: markets, until: { transcript in count == transcript.readings.count })
    }

    /// What the codec must read from a message whose `entry` (for `market`, `nil` when its name
    /// maps to none) fails at `path` for `reason` beside `quotes` that read: the quotes, and the
    /// entry skipped under the venue's id, costing only itself.
    public func skipped(
        _ entry: String, market: Market?, path: String, reason: String, keeping quotes: [Quote] = []
    ) -> StreamReading {
        .quotes(quotes, skipped: [SkippedEntry(venue: venue, entry: entry, market: market, path: path, reason: reason)])
    }
}
