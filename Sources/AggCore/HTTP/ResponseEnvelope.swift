import AggJSON

/// One endpoint of a venue: the path and query after the base URL. Each adapter's `APIRouter`
/// is one, and the only place that builds that venue's paths.
public protocol VenueRoute: Sendable {
    /// The path and query after the base URL (`/public/ticker/BTC_KRW`).
    var path: String { get }
}

extension VenueRoute {
    /// The absolute URL under `baseURL` (which may carry a path prefix, kept as is).
    public func url(baseURL: String) -> String {
        baseURL + path
    }
}

/// A venue's own error, as its answer states it: code and message kept verbatim.
public struct VenueErrorFields: Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// How a venue wraps its answers: where an error's code and message are, and where the data of
/// a successful answer is.
///
/// Venues send their errors with any HTTP status, 200 included (Bithumb's
/// `{"status":"5500","message":...}`, Coinone's `{"result":"error","error_code":"108"}`), so
/// `error` reads every parsed body, whatever the status. `payload` runs on answers that carry no
/// error; a body without the envelope the venue always sends is a decoding error at the path that
/// is missing.
public struct ResponseEnvelope: Sendable {
    /// The venue's error in a parsed answer, or `nil` when the answer is not an error.
    public var error: @Sendable (JSONCursor, HTTPResponse) -> VenueErrorFields?
    /// The part of a successful answer that holds the data (Bithumb's `$.data`).
    public var payload: @Sendable (JSONCursor) throws(JSONDecodingError) -> JSONCursor

    public init(
        error: @escaping @Sendable (JSONCursor, HTTPResponse) -> VenueErrorFields?,
        payload: @escaping @Sendable (JSONCursor) throws(JSONDecodingError) -> JSONCursor = { $0 }
    ) {
        self.error = error
        self.payload = payload
    }

    /// Answers with no envelope and no error body of their own: only the HTTP status tells.
    public static let none = ResponseEnvelope(error: { _, _ in nil })
}
