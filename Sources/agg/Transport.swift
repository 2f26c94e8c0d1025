import AggCore
import AggTransport

/// The HTTP client for live requests: libcurl on its own thread.
func makeTransport(timeouts: HTTPTimeouts) -> any HTTPClient {
    CurlHTTPClient(timeouts: timeouts)
}
