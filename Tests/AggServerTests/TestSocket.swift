import AggTestKit
import Foundation
import Glibc

/// A client socket for the server's slow-client and abuse tests: connects from a chosen
/// loopback address (so that one test can be two clients), sends bytes when told, and reads
/// until the server closes. Blocking calls run on threads of their own (`onThread`).
final class TestSocket: Sendable {
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port` from `source` (any 127.x.y.z address: all are loopback).
    init(port: Int, from source: String = "127.0.0.1", timeout: Double = 30) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = UInt16(port).bigEndian
        remote.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "connect from \(source): errno \(code)")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends `text`; false once the server has closed.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            == bytes.count
    }

    /// Whether the server has sent something (or closed) that is not read yet.
    func readable() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Everything the server sends until it closes (or the receive timeout).
    func readToEnd() -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return received }
            received += chunk[..<count]
        }
    }

    /// The answer read to the end, parsed.
    func answer() throws -> RawHTTPClient.Answer { try RawHTTPClient.parse(readToEnd()) }

    /// Runs `body` on a new thread and awaits it.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
