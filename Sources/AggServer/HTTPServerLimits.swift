/// How much one client, and all of them together, may take.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Connections at once (one thread each); past it a new connection is answered 503 and
    /// closed. The server lowers it to leave `reservedDescriptors` of the open-file limit free.
    public var connections: Int
    /// Connections at once from one client address; past it, 503 and closed.
    public var connectionsPerAddress: Int
    /// Seconds a connection may wait for the first byte of a request, or for a client to read
    /// what it is sent, before it is closed.
    public var idleTimeoutSeconds: Int
    /// Seconds from a request's first byte to the end of its head (request line and headers),
    /// however steadily the bytes trickle in: 408 and closed past it.
    public var headDeadlineSeconds: Double
    /// Bytes of the request line (414 past it).
    public var requestLineBytes: Int
    /// Bytes of the header fields after the request line (431 past it).
    public var headerBytes: Int
    /// Header fields in one request (431 past it).
    public var headerFields: Int
    /// Query parameters in one request (414 past it).
    public var queryArguments: Int
    /// Body bytes read (and thrown away: every route is GET) before 413.
    public var bodyBytes: Int
    /// The stack of each connection thread.
    public var threadStackSize: Int
    /// Seconds between keep-alive comments on an idle event stream: less than
    /// `idleTimeoutSeconds`, so that a quiet stream is not taken for an idle connection.
    public var streamKeepAliveSeconds: Double

    /// File descriptors kept free of connections for the rest of the process (the poller's
    /// requests, the store, standard streams).
    public static let reservedDescriptors = 128

    public static let standard = HTTPServerLimits()

    public init(
        connections: Int = 1024, connectionsPerAddress: Int = 256, idleTimeoutSeconds: Int = 15,
        headDeadlineSeconds: Double = 10, requestLineBytes: Int = 8 * 1024, headerBytes: Int = 16 * 1024,
        headerFields: Int = 100, queryArguments: Int = 64, bodyBytes: Int = 16 * 1024,
        threadStackSize: Int = 512 * 1024, streamKeepAliveSeconds: Double = 10
    ) {
        self.connections = connections
        self.connectionsPerAddress = connectionsPerAddress
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.headDeadlineSeconds = headDeadlineSeconds
        self.requestLineBytes = requestLineBytes
        self.headerBytes = headerBytes
        self.headerFields = headerFields
        self.queryArguments = queryArguments
        self.bodyBytes = bodyBytes
        self.threadStackSize = threadStackSize
        self.streamKeepAliveSeconds = streamKeepAliveSeconds
    }

    /// `connections`, lowered so that `reservedDescriptors` of `fileLimit` (the process's
    /// open-file limit) stay free: a server at its cap can still open files and sockets.
    public static func connectionCap(_ connections: Int, fileLimit: Int) -> Int {
        max(1, min(connections, fileLimit - reservedDescriptors))
    }
}
