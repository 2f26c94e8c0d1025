/// The method of an `HTTPRequest`: venues are read with GET; alert destinations receive POST.
public enum HTTPMethod: String, Sendable, Equatable {
    case get = "GET"
    case post = "POST"
}

/// A request: a GET to a venue (the default), or a POST with a body to an alert destination.
public struct HTTPRequest: Sendable, Equatable {
    /// The absolute URL, built by an adapter's router.
    public var url: String
    /// GET unless said otherwise.
    public var method: HTTPMethod
    /// The body of a POST, sent as given (the request's headers say its `Content-Type`); empty
    /// for a GET.
    public var body: [UInt8]
    /// Extra request headers. The transport adds `User-Agent` and `Accept` itself and never
    /// sends `Origin`.
    public var headers: [HTTPHeader]
    /// Overrides the client's timeouts for this request.
    public var timeouts: HTTPTimeouts?

    public init(
        url: String, headers: [HTTPHeader] = [], timeouts: HTTPTimeouts? = nil, method: HTTPMethod = .get,
        body: [UInt8] = []
    ) {
        self.url = url
        self.headers = headers
        self.timeouts = timeouts
        self.method = method
        self.body = body
    }
}

/// One header line.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// How long to wait for a connection and for the whole answer.
public struct HTTPTimeouts: Sendable, Equatable {
    public var connect: Double
    public var total: Double

    /// 5 s to connect, 10 s in all.
    public static let standard = HTTPTimeouts(connect: 5, total: 10)

    public init(connect: Double, total: Double) {
        self.connect = connect
        self.total = total
    }
}

/// A complete answer.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header lines of the final answer (after redirects), in order.
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var url: String

    public init(status: Int, headers: [HTTPHeader], body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The first header named `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// Why a request got no complete answer. Transports throw these; adapters turn them into
/// `AggError`s that name the venue.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    case timeout(url: String, seconds: Double)
    case connection(url: String, detail: String)
    /// The answer broke off or was not valid HTTP (a truncated body, a dropped connection).
    case malformedResponse(url: String, detail: String)
    /// The body is larger than the transport accepts (`limit` bytes, after content decoding).
    /// Asking again would get the same answer, so it is not retried.
    case responseTooLarge(url: String, limit: Int)
    case invalidURL(String)

    public var description: String {
        switch self {
        case .timeout(let url, let seconds): "no answer within \(seconds) s from \(url)"
        case .connection(let url, let detail): "connection to \(url) failed: \(detail)"
        case .malformedResponse(let url, let detail): "broken answer from \(url): \(detail)"
        case .responseTooLarge(let url, let limit): "the answer from \(url) is larger than the limit of \(limit) bytes"
        case .invalidURL(let url): "invalid URL \(url)"
        }
    }
}

/// Sends HTTP requests (GET, and POST for alert destinations). The libcurl transport is the real one; `--offline` and tests plug in
/// others. Implementations must not block the caller's thread while waiting.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the complete answer, whatever its status.
    ///
    /// - Throws: `TransportError` when there is no complete answer, `CancellationError` when the
    ///   calling task is cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
