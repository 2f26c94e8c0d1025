import Dispatch
import Glibc

/// Thin wrappers over the Glibc socket calls the loopback server needs.
enum LoopbackSocket {
    /// A listening TCP socket on 127.0.0.1 with a port the kernel chose.
    ///
    /// - Returns: the descriptor and the port.
    static func listenOnLoopback() throws(LoopbackServerError) -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackServerError(operation: "socket", code: errno) }

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw closing(descriptor, LoopbackServerError(operation: "bind", code: errno)) }
        guard listen(descriptor, 128) == 0 else {
            throw closing(descriptor, LoopbackServerError(operation: "listen", code: errno))
        }

        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            throw closing(descriptor, LoopbackServerError(operation: "getsockname", code: errno))
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func closing(_ descriptor: Int32, _ error: LoopbackServerError) -> LoopbackServerError {
        close(descriptor)
        return error
    }

    /// Reads what is available, retrying after signals.
    ///
    /// - Returns: the bytes read, or `nil` at end of stream or on error.
    static func receive(_ descriptor: Int32, maximum: Int = 4096) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Sends all of `bytes` without raising `SIGPIPE` when the peer has gone.
    ///
    /// - Returns: whether everything was sent.
    @discardableResult
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(
                    descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Waits `seconds` while the connection stays open, discarding anything the peer sends.
    ///
    /// - Returns: `false` as soon as the peer closes the connection or the server shuts it down.
    static func waitWhileOpen(_ descriptor: Int32, seconds: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(seconds, 0) * 1_000_000_000)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return true }
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, 1000))
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if ready > 0 && !discardAvailable(descriptor) { return false }
        }
    }

    /// Blocks until the peer closes the connection or the server shuts it down.
    static func waitUntilClosed(_ descriptor: Int32) {
        while receive(descriptor) != nil {}
    }

    /// Reads and drops what is available without blocking.
    ///
    /// - Returns: `false` when the connection has ended.
    private static func discardAvailable(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { return true }
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
    }
}
