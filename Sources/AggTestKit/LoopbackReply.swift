import AggCore

/// What the loopback server answers to one request.
///
/// The server adds `Content-Length` (unless `headers` has one) and `Connection: close`.
public struct LoopbackReply: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header lines to send, in order.
    public var headers: [HTTPHeader]
    /// The body, sent as is.
    public var body: [UInt8]
    /// Seconds to wait before answering. The wait ends early, without an answer, when the client
    /// goes away or the server stops.
    public var delay: Double
    /// How the answer should go wrong, if at all.
    public var fault: LoopbackFault

    /// Creates a reply.
    public init(
        status: Int = 200,
        headers: [HTTPHeader] = [],
        body: [UInt8] = [],
        delay: Double = 0,
        fault: LoopbackFault = .none
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
    }

    /// A JSON body, with `Content-Type: application/json`.
    public static func json(_ text: String, status: Int = 200) -> LoopbackReply {
        LoopbackReply(
            status: status,
            headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
            body: Array(text.utf8))
    }

    /// Any bytes, with the given content type and extra headers (`Content-Encoding`, say).
    public static func bytes(
        _ body: [UInt8],
        status: Int = 200,
        contentType: String = "application/octet-stream",
        headers: [HTTPHeader] = []
    ) -> LoopbackReply {
        LoopbackReply(
            status: status,
            headers: [HTTPHeader(name: "Content-Type", value: contentType)] + headers,
            body: body)
    }

    /// An empty answer with `status`.
    public static func status(_ status: Int) -> LoopbackReply {
        LoopbackReply(status: status)
    }

    /// A redirect to `location` (absolute, or a path on this server).
    public static func redirect(to location: String, status: Int = 302) -> LoopbackReply {
        LoopbackReply(status: status, headers: [HTTPHeader(name: "Location", value: location)])
    }

    /// This reply, sent after `seconds`.
    public func delayed(by seconds: Double) -> LoopbackReply {
        var reply = self
        reply.delay = seconds
        return reply
    }

    /// This reply, going wrong as `fault` says.
    public func withFault(_ fault: LoopbackFault) -> LoopbackReply {
        var reply = self
        reply.fault = fault
        return reply
    }

    /// This reply with one more header line.
    public func withHeader(_ name: String, _ value: String) -> LoopbackReply {
        var reply = self
        reply.headers.append(HTTPHeader(name: name, value: value))
        return reply
    }
}

/// The ways a loopback answer can go wrong, to test how a client copes.
public enum LoopbackFault: Sendable, Equatable {
    /// A complete, well-formed answer.
    case none
    /// The headers announce the full `Content-Length`, but only the first `afterBytes` bytes of
    /// the body are sent before the connection is closed.
    case truncate(afterBytes: Int)
    /// The connection is closed, once the request has been read, without sending anything.
    case dropConnection
    /// No answer ever; the connection stays open until the client closes it or the server stops.
    case hang
}
