import AggCore

/// What every transfer of one client shares.
struct CurlTransferSettings: Sendable {
    /// Used when a request carries no timeouts of its own.
    var timeouts: HTTPTimeouts
    /// The `User-Agent` header value.
    var userAgent: String
    /// The largest body accepted, after content decoding.
    var maximumBodySize: Int
}
