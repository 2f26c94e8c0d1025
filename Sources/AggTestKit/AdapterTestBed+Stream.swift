import AggCore

/// What a venue declares about its ticker stream, in one value a test compares whole: the
/// capability, the URL override's name and the descriptor's stream.
public struct StreamDeclaration: Sendable, Equatable {
    /// Whether the descriptor lists `.stream`.
    public var declared: Bool
    /// `AGG_<ID>_WS_URL`.
    public var urlVariable: String
    /// The descriptor's stream: URL, keep-alive, silence limit and quotas.
    public var stream: StreamDescriptor?

    /// A venue that declares `stream` under `urlVariable`.
    public init(urlVariable: String, stream: StreamDescriptor) {
        declared = true
        self.urlVariable = urlVariable
        self.stream = stream
    }

    /// What `descriptor` declares.
    public init(_ descriptor: AdapterDescriptor) {
        declared = descriptor.supports(.stream)
        urlVariable = descriptor.streamURLVariable
        stream = descriptor.stream
    }
}

extension AdapterTestBed {
    /// The venue's stream declaration.
    public var streamDeclaration: StreamDeclaration { StreamDeclaration(Adapter.descriptor) }

    /// The codec the adapter hands the stream runner.
    public var tickerCodec: (any TickerStreamCodec)? { adapter(ScriptedHTTPClient(body: "")).tickerStream }
}

extension TickerStreamRun {
    /// The server saw the connection end, and no connection broke the script's expectations
    /// (its subscribe messages matched, nothing unexpected was sent).
    public var endedClean: Bool { ended && connections.allSatisfy { $0.violations.isEmpty } }
}
