/// Routes requests by exact path and method: an unknown path is 404, a known path asked with
/// another method is 405 with an `Allow` header. `HEAD` is allowed wherever `GET` is
/// (libmicrohttpd leaves the body out).
public struct Router: Sendable {
    /// Answers one route.
    public typealias Responder = @Sendable (HTTPServerRequest) -> HTTPServerResponse

    private var routes: [String: [String: Responder]] = [:]

    public init() {}

    /// Adds `path` for GET (and HEAD).
    public mutating func get(_ path: String, _ responder: @escaping Responder) {
        routes[path, default: [:]]["GET"] = responder
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
        return responder(request)
    }
}
