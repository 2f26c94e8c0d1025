/// Routes requests by exact path and method: an unknown path is 404, a known path asked with
/// another method is 405 with an `Allow` header. `HEAD` is allowed wherever `GET` is
/// (the server leaves the body out, and ends an event stream before it starts).
public struct Router: Sendable {
    /// Answers one route.
    public typealias Responder = @Sendable (HTTPServerRequest) -> HTTPServerResponse

    private var routes: [String: [String: Responder]] = [:]
    /// The query parameters of routes that declare them.
    private var parameters: [String: Set<String>] = [:]

    public init() {}

    /// Adds `path` for GET (and HEAD). With `parameters`, the router itself answers 400 to a
    /// query parameter outside them or given twice (`[]`: the route takes no query), so that
    /// every route follows the same rule; without, the responder checks its query.
    public mutating func get(_ path: String, parameters: Set<String>? = nil, _ responder: @escaping Responder) {
        routes[path, default: [:]]["GET"] = responder
        self.parameters[path] = parameters
    }

    /// Adds `path` as an event stream of `hub` (GET and HEAD, no query parameters): GET
    /// subscribes (503 when `hub` has its maximum of subscribers), HEAD answers the stream's
    /// headers without subscribing.
    public mutating func stream(_ path: String, hub: EventStreamHub) {
        get(path, parameters: []) { request in
            guard request.method != "HEAD" else {
                return HTTPServerResponse(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                    body: .bytes([]))
            }
            guard let subscription = hub.subscribe() else {
                return .error(503, "too many stream clients (at most \(hub.maximumSubscribers))")
            }
            return HTTPServerResponse(status: 200, body: .events(subscription))
        }
    }

    /// Whether `path` is a route; `label(for:)` of metrics uses it.
    public func knows(_ path: String) -> Bool { routes[path] != nil }

    /// The routes' paths, sorted.
    public var paths: [String] { routes.keys.sorted() }

    public func route(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let methods = routes[request.path] else {
            return .error(404, "no such path; see /v1/exchanges, /metrics and /healthz")
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let responder = methods[method] else {
            let allowed = methods.keys.sorted().flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }
            return .error(
                405, "\(request.method) is not allowed on \(request.path)",
                headers: [("Allow", allowed.joined(separator: ", "))])
        }
        if let allowed = parameters[request.path], let refusal = Self.check(request.arguments, allowed, request.path) {
            return refusal
        }
        return responder(request)
    }

    private static func check(_ arguments: [HTTPServerRequest.Argument], _ allowed: Set<String>, _ path: String)
        -> HTTPServerResponse?
    {
        guard !arguments.isEmpty else { return nil }
        guard !allowed.isEmpty else { return .error(400, "\(path) takes no query parameters") }
        var seen: Set<String> = []
        for argument in arguments {
            guard allowed.contains(argument.name) else {
                return .error(
                    400,
                    "unknown query parameter '\(argument.name)'; this endpoint takes "
                        + allowed.sorted().joined(separator: ", "))
            }
            guard seen.insert(argument.name).inserted else {
                return .error(400, "query parameter '\(argument.name)' is given twice; separate values with commas")
            }
        }
        return nil
    }
}
