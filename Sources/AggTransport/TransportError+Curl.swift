import AggCore
import CCurl

extension TransportError {
    /// The transport error for a transfer that libcurl ended with `code`.
    ///
    /// - Parameters:
    ///   - url: the requested URL.
    ///   - timeoutSeconds: the total timeout, reported when it expired.
    ///   - detail: libcurl's own explanation (its error buffer, or the text of `code`).
    init(curlCode code: CURLcode, url: String, timeoutSeconds: Double, detail: String) {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            self = .timeout(url: url, seconds: timeoutSeconds)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            self = .invalidURL(url)
        case CURLE_PARTIAL_FILE:
            self = .malformedResponse(url: url, detail: "the answer was cut short (\(detail))")
        case CURLE_GOT_NOTHING:
            self = .malformedResponse(url: url, detail: "the server closed the connection without answering")
        case CURLE_RECV_ERROR, CURLE_BAD_CONTENT_ENCODING, CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2,
            CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_WRITE_ERROR, CURLE_FILESIZE_EXCEEDED:
            self = .malformedResponse(url: url, detail: detail)
        case CURLE_TOO_MANY_REDIRECTS:
            self = .connection(url: url, detail: "too many redirects (\(detail))")
        default:
            // Connection failures proper (COULDNT_CONNECT, COULDNT_RESOLVE_HOST, the SSL_* and
            // PEER_FAILED_VERIFICATION family, SEND_ERROR) and anything rarer: libcurl's text
            // says which.
            self = .connection(url: url, detail: detail)
        }
    }
}
