/// A small HTTP/1.1 server on 127.0.0.1 for tests.
///
/// Each server listens on its own port chosen by the kernel, accepts on its own thread and serves
/// each connection on a thread of its own: one request per connection, answered with
/// `Connection: close`. `handler` decides every answer, including delays and faults (a cut-short
/// body, a dropped connection, no answer at all), so tests can drive a client through every way
/// a venue can misbehave. Servers share nothing, so tests may run any number in parallel.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     request.path == "/ticker" ? .json(#"{"price":"1.5"}"#) : .status(404)
/// }
/// let response = try await client.send(HTTPRequest(url: server.baseURL + "/ticker"))
/// ```
public final class LoopbackServer: Sendable {
    private let core: LoopbackServerCore

    /// Starts a server that answers every request with `handler`'s reply.
    ///
    /// `handler` runs on the connection's thread, possibly on several at once.
    ///
    /// - Throws: `LoopbackServerError` when the listening socket cannot be set up.
    public init(handler: @escaping @Sendable (LoopbackRequest) -> LoopbackReply) throws {
        core = try LoopbackServerCore(handler: handler)
        core.start()
    }

    deinit {
        core.stop()
    }

    /// The port the server listens on.
    public var port: Int { core.port }

    /// `http://127.0.0.1:<port>`, to which a test appends a path.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in the order they arrived.
    public var requests: [LoopbackRequest] { core.requests }

    /// Empties the log of requests, so that a long run (a benchmark of thousands of requests)
    /// does not grow with it.
    public func forgetRequests() { core.forgetRequests() }

    /// Stops the server: no more connections are accepted, and the connections still open,
    /// including hanging ones, are shut down. Once this returns the port refuses connections.
    /// Calling it again does nothing; releasing the server calls it too.
    public func stop() {
        core.stop()
    }
}
