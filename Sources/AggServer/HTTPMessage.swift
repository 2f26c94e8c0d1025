import AggJSON

/// One request as the server received it: the method, the path without the query, the query
/// arguments (percent-decoded by the server's request reader, in order) and the headers a
/// handler needs.
public struct HTTPServerRequest: Sendable {
    /// One query argument; `value` is `nil` for a bare `?name`.
    public struct Argument: Sendable, Equatable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    public var path: String
    public var arguments: [Argument]
    /// The `Authorization` header, if sent.
    public var authorization: String?

    public init(method: String, path: String, arguments: [Argument] = [], authorization: String? = nil) {
        self.method = method
        self.path = path
        self.arguments = arguments
        self.authorization = authorization
    }
}

/// A handler's answer: a complete body, or a stream of server-sent events.
public struct HTTPServerResponse: Sendable {
    /// What is sent after the headers.
    public enum Body: Sendable {
        case bytes([UInt8])
        /// `text/event-stream`: the subscription's events until it ends or the client leaves.
        case events(EventSubscription)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// A tag that changes whenever the body does (the snapshot generation, say): the server
    /// sends it as a weak `ETag` and answers a matching `If-None-Match` with 304 and no body.
    /// Visible ASCII without `"`; any other tag is not sent.
    public var etag: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body, etag: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.etag = etag
    }

    /// A JSON body (`application/json`), as the CLI writes it.
    public static func json(_ text: String, status: Int = 200, etag: String? = nil) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, headers: [("Content-Type", "application/json")], body: .bytes(Array(text.utf8)),
            etag: etag)
    }

    /// `{"error":{"status":N,"message":"..."}}` and a newline.
    public static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = [])
        -> HTTPServerResponse
    {
        var response = json(errorText(status, message), status: status)
        response.headers += headers
        return response
    }

    /// The body of `error(_:_:)`.
    public static func errorText(_ status: Int, _ message: String) -> String {
        let document: JSONValue = ["error": ["status": .number(String(status)), "message": .string(message)]]
        return document.serialized() + "\n"
    }

    /// A plain-text body with `contentType`.
    public static func text(_ text: String, contentType: String, status: Int = 200) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }
}

/// What the server calls for every request, on the server's connection threads.
///
/// `respond` runs on a connection's own thread, not on Swift's cooperative pool: it must not
/// wait on the network, and must not wait for async work that could itself wait for this
/// thread. Reading shared state behind a lock is what it is for.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPServerRequest) -> HTTPServerResponse
    /// Called once a response has been sent (or the connection failed): the request's route
    /// label, its status, and the seconds from the request's arrival to the end of the response.
    func finished(label: String, status: Int, seconds: Double)
    /// A short label for metrics: the route the request matched, never the raw path (which a
    /// client controls).
    func label(for request: HTTPServerRequest) -> String
}
