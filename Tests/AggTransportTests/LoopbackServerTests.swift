import AggCore
import AggTestKit
import AggTransport
import Glibc
import Testing

/// The loopback server parses what it receives and survives clients that misbehave.
@Suite("LoopbackServer")
struct LoopbackServerTests {
    @Test("the path, query, query items and headers are parsed")
    func parsesTheRequest() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let url = server.baseURL + "/api/v1/ticker?symbol=BTC%2DUSD&depth=5&flag&empty="
        _ = try await CurlHTTPClient().send(
            HTTPRequest(url: url, headers: [HTTPHeader(name: "X-Key", value: "  spaced value ")]))

        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/api/v1/ticker")
        #expect(request.query == "symbol=BTC%2DUSD&depth=5&flag&empty=")
        #expect(
            request.queryItems == [
                LoopbackQueryItem(name: "symbol", value: "BTC-USD"),
                LoopbackQueryItem(name: "depth", value: "5"),
                LoopbackQueryItem(name: "flag", value: ""),
                LoopbackQueryItem(name: "empty", value: ""),
            ])
        #expect(request.queryValue("depth") == "5")
        #expect(request.header("x-key") == "spaced value")
        #expect(request.header("HOST") == "127.0.0.1:\(server.port)")
    }

    @Test("a request head that arrives in pieces is read whole")
    func readsAHeadInPieces() throws {
        let server = try LoopbackServer { request in .json(#"{"path":"\#(request.path)"}"#) }
        let pieces = ["GE", "T /pie", "ces?a=1 HTTP/1.1\r", "\nHost: x\r\nX-A", ": b\r\n", "\r", "\n"]

        let answer = try RawConnection(port: server.port).exchange(pieces)

        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.hasSuffix(#"{"path":"/pieces"}"#))
        #expect(server.requests.first?.target == "/pieces?a=1")
        #expect(server.requests.first?.header("X-A") == "b")
    }

    @Test("clients that leave early or send garbage do not stop the server")
    func survivesBadClients() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        try RawConnection(port: server.port).closeAfterSending(["GET /half HTTP/1.1\r\nHost"])
        _ = try RawConnection(port: server.port).exchange(["NOT HTTP\r\n\r\n"])
        // A client that goes away while its answer is delayed: the server's write fails quietly.
        let slow = try LoopbackServer { _ in LoopbackReply.json("{}").delayed(by: 0.2) }
        try RawConnection(port: slow.port).closeAfterSending(["GET / HTTP/1.1\r\nHost: x\r\n\r\n"])

        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + "/after"))
        #expect(response.status == 200)
        #expect(server.requests.map(\.path) == ["/after"])
    }

    @Test("stop() ends hanging connections and returns promptly")
    func stopEndsHangingConnections() async throws {
        let server = try LoopbackServer { _ in LoopbackReply.json("{}").withFault(.hang) }
        let client = CurlHTTPClient()
        let task = Task { try await client.send(HTTPRequest(url: server.baseURL + "/hang")) }
        #expect(await eventually { server.requests.count == 1 })

        let (_, elapsed) = await timed { server.stop() }
        let result = await task.result

        #expect(elapsed < .seconds(3))
        #expect(throws: TransportError.self) { try result.get() }
    }
}

/// A bare TCP client, to send exactly the bytes a test wants.
private struct RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 { close(descriptor) }
        try #require(connected == 0)
    }

    /// Sends `pieces` with short pauses between them, then reads until the server closes.
    func exchange(_ pieces: [String]) throws -> String {
        defer { close(descriptor) }
        try sendPieces(pieces)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Sends `pieces` and closes the connection without reading.
    func closeAfterSending(_ pieces: [String]) throws {
        defer { close(descriptor) }
        try sendPieces(pieces)
    }

    private func sendPieces(_ pieces: [String]) throws {
        for piece in pieces {
            let bytes = Array(piece.utf8)
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(sent == bytes.count)
            usleep(20_000)
        }
    }
}
