import Foundation
import Glibc

/// A test client that sends exact bytes to a loopback HTTP server and reads the answer: for
/// requests no well-behaved client would send (oversized headers, bad request lines), for
/// counting bytes exactly, and for event streams.
///
/// Every call runs its blocking socket work on a thread of its own and is awaited, so that
/// tests never block Swift's cooperative pool (which the server under test may need).
public enum RawHTTPClient {
    /// A parsed answer.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        /// Header names lower-cased, in order.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public var text: String { String(decoding: body, as: UTF8.self) }

        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        public static func == (a: Answer, b: Answer) -> Bool {
            a.status == b.status && a.body == b.body && a.headers.elementsEqual(b.headers) { $0 == $1 }
        }
    }

    /// Why there is no answer.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `GET path` with `headers`, one request on a new connection (`Connection: close`), waiting
    /// up to `timeout` seconds for each read.
    public static func get(
        port: Int, _ path: String, headers: [String] = [], method: String = "GET", timeout: Double = 10
    ) async throws -> Answer {
        let head = (["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers)
            .joined(separator: "\r\n")
        return try await send(port: port, Array((head + "\r\n\r\n").utf8), timeout: timeout)
    }

    /// Sends `bytes` on a new connection and parses the answer read until the server closes it.
    public static func send(port: Int, _ bytes: [UInt8], timeout: Double = 10) async throws -> Answer {
        try parse(try await sendRaw(port: port, bytes, timeout: timeout))
    }

    /// Sends `bytes` on a new connection and returns everything read until the server closes it.
    public static func sendRaw(port: Int, _ bytes: [UInt8], timeout: Double = 10) async throws -> [UInt8] {
        try await onThread { () throws -> [UInt8] in
            let descriptor = try connect(port: port, timeout: timeout)
            defer { close(descriptor) }
            _ = LoopbackSocket.sendAll(descriptor, bytes)
            shutdown(descriptor, Int32(SHUT_WR))
            var received: [UInt8] = []
            while let chunk = LoopbackSocket.receive(descriptor, maximum: 65536) { received += chunk }
            return received
        }
    }

    /// Opens `path` as an event stream and returns the first `count` events' `data:` lines
    /// (each event's data, lines joined by newlines); keep-alive comments are skipped.
    public static func events(port: Int, _ path: String, count: Int, headers: [String] = [], timeout: Double = 10)
        async throws -> [String]
    {
        try await onThread { () throws -> [String] in
            let descriptor = try connect(port: port, timeout: timeout)
            defer { close(descriptor) }
            // HTTP/1.0, so that the stream comes unchunked, as written, until the server closes it.
            let head = (["GET \(path) HTTP/1.0", "Host: 127.0.0.1"] + headers).joined(separator: "\r\n")
            _ = LoopbackSocket.sendAll(descriptor, Array((head + "\r\n\r\n").utf8))
            var text = ""
            var events: [String] = []
            while events.count < count {
                guard let chunk = LoopbackSocket.receive(descriptor, maximum: 65536) else {
                    throw Failure(description: "the stream ended after \(events.count) events")
                }
                text += String(decoding: chunk, as: UTF8.self)
                while let end = text.range(of: "\n\n"), events.count < count {
                    let block = text[..<end.lowerBound]
                    text = String(text[end.upperBound...])
                    let data = block.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }
                    if !data.isEmpty { events.append(data.joined(separator: "\n")) }
                }
            }
            return events
        }
    }

    /// A connected socket that nobody reads from, for slow-client tests: the caller closes it.
    public static func openIdle(port: Int, request: String) async throws -> Int32 {
        try await onThread { () throws -> Int32 in
            let descriptor = try connect(port: port, timeout: 10)
            _ = LoopbackSocket.sendAll(descriptor, Array(request.utf8))
            return descriptor
        }
    }

    /// Sends `bytes` on a socket from `openIdle` or `openStream`, then reads to the end and parses
    /// the answer. The caller still closes the socket.
    public static func finish(_ descriptor: Int32, with bytes: [UInt8]) async throws -> Answer {
        try parse(
            try await onThread { () throws -> [UInt8] in
                _ = LoopbackSocket.sendAll(descriptor, bytes)
                return readToEnd(descriptor)
            })
    }

    /// Opens `path` with HTTP/1.1 and returns once the answer's head has come: the socket and
    /// what was read so far. The caller closes the socket.
    public static func openStream(port: Int, _ path: String) async throws -> (descriptor: Int32, received: [UInt8]) {
        try await onThread { () throws -> (descriptor: Int32, received: [UInt8]) in
            let descriptor = try connect(port: port, timeout: 30)
            _ = LoopbackSocket.sendAll(descriptor, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            var received: [UInt8] = []
            while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                guard let chunk = LoopbackSocket.receive(descriptor, maximum: 65536) else {
                    close(descriptor)
                    throw Failure(description: "no answer head from \(path)")
                }
                received += chunk
            }
            return (descriptor, received)
        }
    }

    /// Everything the server sends on `descriptor` until it closes.
    public static func readRest(_ descriptor: Int32) async throws -> [UInt8] {
        try await onThread { readToEnd(descriptor) }
    }

    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var received: [UInt8] = []
        while let chunk = LoopbackSocket.receive(descriptor, maximum: 65536) { received += chunk }
        return received
    }

    private static func connect(port: Int, timeout: Double) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "connect to port \(port): errno \(code)")
        }
        return descriptor
    }

    /// Runs `body` on a new thread and awaits its result.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Status line, headers, and the body (de-chunked when chunked).
    public static func parse(_ raw: [UInt8]) throws -> Answer {
        guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw Failure(description: "no complete head in \(raw.count) bytes")
        }
        let head = String(decoding: raw[..<split.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        var body = Array(raw[split.upperBound...])
        if headers.contains(where: { $0.name == "transfer-encoding" && $0.value.lowercased() == "chunked" }) {
            body = dechunk(body)
        }
        return Answer(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            guard start + size <= bytes.count else { break }
            out += bytes[start..<start + size]
            index = start + size + 2
            guard index <= bytes.count else { break }
        }
        return out
    }
}
