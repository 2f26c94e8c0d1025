import AggCore
import CCrypto
import FoundationEssentials

/// The client's half of the RFC 6455 opening handshake: the upgrade request with a fresh random
/// key, and the check of the server's answer (101 only, `Upgrade: websocket`, `Connection:
/// Upgrade`, the `Sec-WebSocket-Accept` derived from the key, no extension that was not offered).
struct WebSocketHandshake {
    /// The longest answer head read before the handshake is given up as broken.
    static let maximumHeadSize = 16 * 1024

    /// The GUID RFC 6455 appends to the key before hashing.
    private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The base64 of 16 random bytes.
    let key: String
    /// The request bytes to send.
    let request: [UInt8]

    init(url: WebSocketURL, userAgent: String, headers: [HTTPHeader]) {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        key = Data(nonce).base64EncodedString()
        var lines = [
            "GET \(url.target) HTTP/1.1",
            "Host: \(url.host)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
            "User-Agent: \(userAgent)",
        ]
        lines += headers.map { "\($0.name): \($0.value)" }
        request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The `Sec-WebSocket-Accept` a server must send for `key`: base64(SHA-1(key + GUID)).
    static func accept(for key: String) -> String {
        let input = Array((key + acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: 20)
        let hashed = input.withUnsafeBytes { source in
            digest.withUnsafeMutableBufferPointer { agg_sha1(source.baseAddress, source.count, $0.baseAddress) }
        }
        // EVP_Digest cannot fail for SHA-1 short of running out of memory; an empty accept then
        // matches no answer, and the handshake fails as invalid.
        return hashed == 1 ? Data(digest).base64EncodedString() : ""
    }

    /// The index just past the blank line ending the answer head in `bytes`, if it is there.
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Checks the answer head (up to and including its blank line).
    func check(head: ArraySlice<UInt8>, url: String) throws(WebSocketError) {
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard let statusLine = lines.first else { throw .handshakeInvalid(url: url, detail: "an empty answer") }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .handshakeInvalid(url: url, detail: "not an HTTP status line: \(statusLine.prefix(80))")
        }
        guard status == 101 else { throw .handshakeRefused(url: url, status: status) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                throw .handshakeInvalid(url: url, detail: "a header line without a colon: \(line.prefix(80))")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        guard fields["upgrade"]?.lowercased() == "websocket" else {
            throw .handshakeInvalid(url: url, detail: "Upgrade is \(fields["upgrade"] ?? "missing"), not websocket")
        }
        let connection = fields["connection"]?.lowercased().split(separator: ",").map { $0.trimmingSpaces() } ?? []
        guard connection.contains("upgrade") else {
            throw .handshakeInvalid(url: url, detail: "Connection is \(fields["connection"] ?? "missing"), not Upgrade")
        }
        let expected = Self.accept(for: key)
        guard let accept = fields["sec-websocket-accept"], accept == expected else {
            throw .handshakeInvalid(
                url: url,
                detail: "Sec-WebSocket-Accept is \(fields["sec-websocket-accept"] ?? "missing"), expected \(expected)")
        }
        if let extensions = fields["sec-websocket-extensions"], !extensions.isEmpty {
            throw .handshakeInvalid(url: url, detail: "the server chose the extension \(extensions), none was offered")
        }
    }
}

extension StringProtocol {
    /// The text without surrounding spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
