import AggCore

/// The HTTP client for live requests. Until the libcurl transport lands this is the only
/// line that names it.
func makeTransport(timeouts: HTTPTimeouts) -> any HTTPClient {
    UnavailableTransport()
}

struct UnavailableTransport: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw TransportError.connection(url: request.url, detail: "no transport linked")
    }
}
