import AggCore
import AggTransport

/// The HTTP client for live requests: libcurl on its own thread.
func makeTransport(timeouts: HTTPTimeouts) -> any HTTPClient {
    CurlHTTPClient(timeouts: timeouts)
}

/// The WebSocket connector for live streams: libcurl connections framed by wslay, all on one
/// engine thread.
func makeStreamConnector() -> any WebSocketConnector {
    WebSocketClient()
}
