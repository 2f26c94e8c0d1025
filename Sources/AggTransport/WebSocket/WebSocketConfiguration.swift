import AggCore

/// The deadlines and limits of a WebSocket client's connections.
public struct WebSocketConfiguration: Sendable, Equatable {
    /// The largest message accepted by default: 16 MiB.
    public static let defaultMaximumMessageSize = 16 * 1024 * 1024

    /// Seconds allowed for DNS, TCP and TLS (libcurl's connect timeout).
    public var connectTimeout: Double
    /// Seconds allowed for the opening handshake once connected.
    public var handshakeTimeout: Double
    /// After this many seconds with nothing received the client sends a ping.
    public var keepAliveInterval: Double
    /// After its ping, the client waits this many seconds for any data (the pong or anything
    /// else) before it gives the connection up as stalled.
    public var keepAliveTimeout: Double
    /// Seconds the client waits for the server's close frame after its own.
    public var closeTimeout: Double
    /// The largest message accepted, in bytes; a larger one closes the connection with 1009.
    public var maximumMessageSize: Int
    /// The `User-Agent` header of the upgrade request.
    public var userAgent: String

    /// Creates a configuration; the defaults ping after 20 s of silence (venues close idle
    /// sockets at about 60 s) and give up 10 s after that ping.
    public init(
        connectTimeout: Double = 10,
        handshakeTimeout: Double = 10,
        keepAliveInterval: Double = 20,
        keepAliveTimeout: Double = 10,
        closeTimeout: Double = 5,
        maximumMessageSize: Int = WebSocketConfiguration.defaultMaximumMessageSize,
        userAgent: String = AggVersion.userAgent
    ) {
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.keepAliveInterval = keepAliveInterval
        self.keepAliveTimeout = keepAliveTimeout
        self.closeTimeout = closeTimeout
        self.maximumMessageSize = maximumMessageSize
        self.userAgent = userAgent
    }
}
