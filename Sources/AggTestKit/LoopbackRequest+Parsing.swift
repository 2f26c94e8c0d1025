import AggCore

extension LoopbackRequest {
    /// The longest request head the server reads before giving up on a client.
    static let maximumHeadSize = 64 * 1024
    /// The longest request body the server reads.
    static let maximumBodySize = 1024 * 1024

    /// Reads one request from `descriptor`, however the bytes are split across reads.
    ///
    /// - Returns: `nil` when the client goes away first or sends something that is not an
    ///   HTTP/1.x request.
    static func read(from descriptor: Int32) -> LoopbackRequest? {
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            guard buffer.count <= maximumHeadSize, let chunk = LoopbackSocket.receive(descriptor) else { return nil }
            let searchFrom = max(0, buffer.count - 3)
            buffer += chunk
            headEnd = endOfHead(in: buffer, from: searchFrom)
        }
        guard let headEnd, var request = parseHead(buffer[..<headEnd]) else { return nil }

        let declared = request.header("Content-Length").flatMap { Int($0.trimmingCharacters(" ")) } ?? 0
        let length = min(max(declared, 0), maximumBodySize)
        var body = Array(buffer[(headEnd + 4)...])
        while body.count < length {
            guard let chunk = LoopbackSocket.receive(descriptor) else { return nil }
            body += chunk
        }
        request.body = Array(body.prefix(length))
        return request
    }

    /// The index of the blank line's `\r\n\r\n`, searching from `start`.
    private static func endOfHead(in buffer: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= 4 else { return nil }
        let pattern: [UInt8] = [13, 10, 13, 10]
        for index in start...(buffer.count - 4) where buffer[index..<(index + 4)].elementsEqual(pattern) {
            return index
        }
        return nil
    }

    /// Parses a request line and header lines.
    static func parseHead(_ bytes: ArraySlice<UInt8>) -> LoopbackRequest? {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }

        let target = requestLine[1]
        let path: Substring
        let query: Substring
        if let mark = target.firstIndex(of: "?") {
            path = target[..<mark]
            query = target[target.index(after: mark)...]
        } else {
            path = target
            query = ""
        }

        var headers: [HTTPHeader] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                HTTPHeader(
                    name: String(line[..<colon]).trimmingCharacters(" \t"),
                    value: String(line[line.index(after: colon)...]).trimmingCharacters(" \t")))
        }
        return LoopbackRequest(
            method: String(requestLine[0]), path: String(path), query: String(query), headers: headers)
    }
}

extension String {
    /// This string without leading and trailing characters from `set`.
    func trimmingCharacters(_ set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
