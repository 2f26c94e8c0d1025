import AggCore

/// A request as the loopback server received it.
public struct LoopbackRequest: Sendable, Equatable {
    /// The method, such as `GET`.
    public var method: String
    /// The path of the request target, without the query (`/api/v3/ticker`).
    public var path: String
    /// The query as sent, without the `?`; empty when there is none.
    public var query: String
    /// The header lines in the order they arrived.
    public var headers: [HTTPHeader]
    /// The body, when the request had a `Content-Length`.
    public var body: [UInt8]

    /// Creates a request; the server builds these, tests may too.
    public init(method: String, path: String, query: String = "", headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The path and, when there is one, `?` and the query: the request target as sent.
    public var target: String {
        query.isEmpty ? path : "\(path)?\(query)"
    }

    /// The query's `name=value` pairs in order, percent-decoded (`+` is kept as it is, as in
    /// `URLComponents`). A pair without `=` has an empty value.
    public var queryItems: [LoopbackQueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            return LoopbackQueryItem(
                name: URLText.decodeStrictly(name) ?? name,
                value: URLText.decodeStrictly(value) ?? value)
        }
    }

    /// The value of the first query item named `name` (compared exactly), if any.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The value of the first header named `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }
}

/// One `name=value` pair of a query.
public struct LoopbackQueryItem: Sendable, Equatable {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the pair had no `=`.
    public var value: String

    /// Creates a query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
