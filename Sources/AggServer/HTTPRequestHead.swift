/// Why a request is answered by the server itself, without reaching the handler: the status
/// and the one-line message of its JSON error. The connection is closed after the answer.
struct HTTPRequestRefusal: Error, Sendable, Equatable {
    var status: Int
    var message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// A request line and header section read strictly (RFC 9112): one grammar, and every request
/// outside it is refused with 400 before any handler sees it, so that no two readers of the
/// same bytes (a proxy in front and this server) can disagree about where a request ends.
struct HTTPRequestHead: Sendable, Equatable {
    var method: String
    /// The request target as sent (origin form: a path and an optional query).
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// Field names lower-cased, values without surrounding whitespace, in order.
    var fields: [(name: String, value: String)]
    /// The declared body length (0 without Content-Length).
    var contentLength: Int

    static func == (a: HTTPRequestHead, b: HTTPRequestHead) -> Bool {
        a.method == b.method && a.target == b.target && a.minorVersion == b.minorVersion
            && a.contentLength == b.contentLength && a.fields.elementsEqual(b.fields) { $0 == $1 }
    }

    /// The value of the field `name` (lower case), the first if several.
    func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The value of the list field `name` (lower case, such as `if-none-match`): its field lines
    /// joined by commas, which is what several lines of a list field mean (RFC 9110 §5.3); `nil`
    /// without one.
    func list(_ name: String) -> String? {
        let values = fields.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Whether the client asks to keep the connection: HTTP/1.1 unless `Connection: close`.
    var keepAlive: Bool {
        guard minorVersion == 1 else { return false }
        let tokens = fields.filter { $0.name == "connection" }.flatMap { $0.value.split(separator: ",") }
        return !tokens.contains { $0.trimmingWhitespace.lowercased() == "close" }
    }

    /// Parses `bytes`, the head without its final empty line (lines end in CRLF).
    static func parse(_ bytes: ArraySlice<UInt8>, limits: HTTPServerLimits) throws(HTTPRequestRefusal)
        -> HTTPRequestHead
    {
        var lines = try Self.lines(bytes)
        guard !lines.isEmpty else { throw HTTPRequestRefusal(400, "an empty request line") }
        let (method, target, minor) = try requestLine(lines.removeFirst())
        guard lines.count <= limits.headerFields else {
            throw HTTPRequestRefusal(431, "more than \(limits.headerFields) header fields")
        }
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(lines.count)
        for line in lines { fields.append(try field(line)) }
        var head = HTTPRequestHead(
            method: method, target: target, minorVersion: minor, fields: fields, contentLength: 0)
        try head.checkFraming()
        return head
    }

    /// Splits at CRLF; a CR or LF anywhere else is refused (a bare LF is where two readers
    /// disagree).
    private static func lines(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestRefusal) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0D {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A else {
                    throw HTTPRequestRefusal(400, "a CR without LF in the request head")
                }
                lines.append(bytes[start..<index])
                index += 2
                start = index
                continue
            }
            if byte == 0x0A { throw HTTPRequestRefusal(400, "a line of the request head ends without CR") }
            index += 1
        }
        if start < bytes.endIndex { lines.append(bytes[start..<bytes.endIndex]) }
        return lines
    }

    /// `METHOD SP TARGET SP HTTP/1.x`, single spaces.
    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestRefusal) -> (String, String, Int) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            throw HTTPRequestRefusal(400, "a malformed request line")
        }
        let target = parts[1]
        guard target.first == 0x2F, target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw HTTPRequestRefusal(400, "the request target must be a path starting with /")
        }
        let version = Array(parts[2])
        guard version.count == 8, version[..<5].elementsEqual("HTTP/".utf8), version[6] == 0x2E,
            (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
        else { throw HTTPRequestRefusal(400, "a malformed HTTP version") }
        guard version[5] == 0x31, version[7] <= 0x31 else {
            throw HTTPRequestRefusal(505, "only HTTP/1.0 and HTTP/1.1 are served")
        }
        return (
            String(decoding: parts[0], as: UTF8.self), String(decoding: target, as: UTF8.self),
            Int(version[7] - 0x30)
        )
    }

    /// `name: value`: the name a token ending at the colon (whitespace before the colon, or a
    /// folded line, is refused), the value visible characters, spaces and tabs.
    private static func field(_ line: ArraySlice<UInt8>) throws(HTTPRequestRefusal) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: 0x3A) else {
            if line.first == 0x20 || line.first == 0x09 {
                throw HTTPRequestRefusal(400, "a folded header line (obsolete line folding is not accepted)")
            }
            throw HTTPRequestRefusal(400, "a header line without a colon")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            if name.first == 0x20 || name.first == 0x09 {
                throw HTTPRequestRefusal(400, "a folded header line (obsolete line folding is not accepted)")
            }
            if name.last == 0x20 || name.last == 0x09 {
                throw HTTPRequestRefusal(400, "whitespace between a header name and its colon")
            }
            throw HTTPRequestRefusal(400, "a malformed header name")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value.removeFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value.removeLast() }
        guard value.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 }) else {
            throw HTTPRequestRefusal(400, "a control character in a header value")
        }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// RFC 9112 §6.3 and §3.2: where the message ends must be unambiguous.
    private mutating func checkFraming() throws(HTTPRequestRefusal) {
        let hosts = fields.filter { $0.name == "host" }.count
        if hosts > 1 { throw HTTPRequestRefusal(400, "more than one Host header") }
        if hosts == 0, minorVersion == 1 { throw HTTPRequestRefusal(400, "an HTTP/1.1 request without Host") }
        let transferEncoding = fields.contains { $0.name == "transfer-encoding" }
        let lengths = fields.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",") }
        if transferEncoding {
            if !lengths.isEmpty { throw HTTPRequestRefusal(400, "both Content-Length and Transfer-Encoding") }
            throw HTTPRequestRefusal(400, "Transfer-Encoding is not accepted: no path takes a request body")
        }
        var length: Int?
        for text in lengths {
            let digits = text.trimmingWhitespace
            guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int(digits)
            else { throw HTTPRequestRefusal(400, "a malformed Content-Length") }
            if let length, length != value { throw HTTPRequestRefusal(400, "two different Content-Length values") }
            length = value
        }
        contentLength = length ?? 0
        if fields.filter({ $0.name == "authorization" }).count > 1 {
            throw HTTPRequestRefusal(400, "more than one Authorization header")
        }
    }
}

/// RFC 9110's `tchar`.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
    default: false
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
