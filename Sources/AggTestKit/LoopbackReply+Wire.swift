import AggCore

extension LoopbackReply {
    /// The status line and header lines, ending with the blank line.
    ///
    /// `Content-Length` announces the whole body, even when a fault cuts it short; it is left out
    /// when the reply names its own. `Connection: close` is always sent.
    var headBytes: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for header in headers where header.name.lowercased() != "connection" {
            head += "\(header.name): \(header.value)\r\n"
        }
        if !headers.contains(where: { $0.name.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 418: "I'm a teapot"
        case 429: "Too Many Requests"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
