#if canImport(Glibc)
    import Glibc
#endif

/// What the server adds to a handler's answer on the wire: the status line, `Date`,
/// `Content-Length`, `Connection: close` when the connection ends, a weak `ETag` with 304 for a
/// matching `If-None-Match`, and gzip for clients that accept it.
enum ResponseEncoding {
    /// Bodies shorter than this are sent as they are: gzip would save a few bytes at most.
    static let gzipThreshold = 1024

    /// The head and body of a complete (`.bytes`) answer to `method`.
    static func wire(
        _ response: HTTPServerResponse, body: [UInt8], method: String, acceptEncoding: String?,
        ifNoneMatch: String?, close: Bool
    ) -> [UInt8] {
        var headers = response.headers
        let tag = response.etag.flatMap(weakTag)
        if let tag { headers.append(("ETag", tag)) }
        let compressible = body.count >= gzipThreshold && response.status == 200
        if compressible { headers.append(("Vary", "Accept-Encoding")) }
        if let tag, response.status == 200, let ifNoneMatch, matches(ifNoneMatch, tag: tag) {
            let kept = headers.filter { ["etag", "vary", "cache-control"].contains($0.name.lowercased()) }
            return head(status: 304, headers: kept, contentLength: nil, close: close)
        }
        var payload = body
        if compressible, accepts(gzip: acceptEncoding), let compressed = Gzip.compress(body) {
            payload = compressed
            headers.append(("Content-Encoding", "gzip"))
        }
        // An event stream has no length (HEAD on a stream route answers its headers only).
        let stream = headers.contains { $0.name.lowercased() == "content-type" && $0.value == "text/event-stream" }
        var bytes = head(
            status: response.status, headers: headers, contentLength: stream ? nil : payload.count, close: close)
        if method != "HEAD" { bytes += payload }
        return bytes
    }

    /// A status line and headers, with `Date`, `Content-Length` (when given) and
    /// `Connection: close`, and the empty line.
    static func head(
        status: Int, headers: [(name: String, value: String)], contentLength: Int?, close: Bool,
        chunked: Bool = false
    ) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\nDate: \(httpDate())\r\n"
        if close { text += "Connection: close\r\n" }
        for header in headers where header.name.utf8.allSatisfy(isTokenByte) {
            let value = header.value.filter { $0 != "\r" && $0 != "\n" }
            text += "\(header.name): \(value)\r\n"
        }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        if chunked { text += "Transfer-Encoding: chunked\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// `W/"tag"`, or nil for a tag with characters an entity tag cannot hold.
    static func weakTag(_ tag: String) -> String? {
        guard !tag.isEmpty, tag.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x22 }) else { return nil }
        return "W/\"\(tag)\""
    }

    /// `If-None-Match` (`*` or a list of entity tags) against `tag`, compared weakly.
    static func matches(_ ifNoneMatch: String, tag: String) -> Bool {
        let opaque = { (text: Substring) -> Substring in
            let trimmed = Substring(text.trimmingWhitespace)
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
        }
        let wanted = opaque(Substring(tag))
        return ifNoneMatch.split(separator: ",").contains { item in
            item.trimmingWhitespace == "*" || opaque(item) == wanted
        }
    }

    /// Whether `Accept-Encoding` accepts gzip: `gzip`, `x-gzip` or `*` without `q=0`.
    static func accepts(gzip acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzip: Bool?
        var any: Bool?
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let coding = parts.first?.trimmingWhitespace.lowercased() else { continue }
            var allowed = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingWhitespace.lowercased() == "q",
                    let q = Double(pair[1].trimmingWhitespace)
                {
                    allowed = q > 0
                }
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = allowed }
            if coding == "*" { any = allowed }
        }
        return gzip ?? any ?? false
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    /// The IMF-fixdate of now: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ seconds: Int = time(nil)) -> String {
        var clock = time_t(seconds)
        var parts = tm()
        gmtime_r(&clock, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
