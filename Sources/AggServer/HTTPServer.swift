import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotListen(address: String, detail: String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let detail): "cannot listen on \(address): \(detail)"
        }
    }
}

/// An HTTP/1.1 server for GET and HEAD: one thread accepts, one thread serves each connection
/// (at most `HTTPServerLimits.connections`, and `connectionsPerAddress` from one address), and
/// the request head is read strictly and within a deadline by `HTTPConnection`; every answer the
/// server gives itself (400, 408, 413, 414, 431, 503) is the handlers' one-line JSON error.
///
/// `stop(drainingFor:)` stops accepting, lets requests in flight finish, ends event streams
/// cleanly and waits for the connection threads; `stop()` (also on `deinit`) does it without
/// waiting for requests.
public final class HTTPServer: Sendable {
    /// The address listened on, with the port the kernel chose when 0 was asked.
    public let address: ListenAddress
    private let listener: Listener
    private let table: ConnectionTable
    private let streams: EventStreamHub?
    private let stopped = Mutex(false)

    /// Starts listening on `address`. `streams`, when given, is closed on stop so that
    /// connection threads waiting for events return.
    public init(
        address: ListenAddress, limits: HTTPServerLimits = .standard, handler: any HTTPHandler,
        streams: EventStreamHub? = nil
    ) throws(HTTPServerError) {
        var fileLimit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit)
        let cap = HTTPServerLimits.connectionCap(limits.connections, fileLimit: Int(clamping: fileLimit.rlim_cur))
        let table = ConnectionTable(capacity: cap, perAddressCapacity: max(1, limits.connectionsPerAddress))
        let descriptor = try Self.listen(on: address)
        let port = Self.boundPort(descriptor)
        guard let listener = Listener(descriptor: descriptor, limits: limits, table: table, handler: handler) else {
            close(descriptor)
            throw .cannotListen(address: address.description, detail: "cannot start the accepting thread")
        }
        self.listener = listener
        self.table = table
        self.streams = streams
        self.address = address.with(port: port)
    }

    deinit {
        stop()
    }

    /// Stops accepting, ends event streams, cuts connections and waits for their threads.
    /// Idempotent.
    public func stop() {
        beginStop()
        table.cutAll()
        waitForConnections(until: monotonicSeconds() + 5)
    }

    /// Stops gracefully: no new connections; connections between requests are closed; requests
    /// in flight (a head arriving, a handler working, an answer being written) finish and are
    /// answered with `Connection: close`; event streams end with their last chunk. What is still
    /// open after `seconds` is cut. Returns once every connection thread is done.
    public func stop(drainingFor seconds: Double) async {
        beginStop()
        table.drain()
        let deadline = monotonicSeconds() + seconds
        while table.count > 0, monotonicSeconds() < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        table.cutAll()
        while table.count > 0, monotonicSeconds() < deadline + 5 {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Connections open now.
    public var connectionCount: Int { table.count }

    /// Connections waiting for the first byte of a request (for tests).
    var idleConnectionCount: Int { table.idleCount }

    /// The base URL for clients: `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://\(address)" }

    private func beginStop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        listener.stop()
        streams?.close()
    }

    private func waitForConnections(until deadline: Double) {
        while table.count > 0, monotonicSeconds() < deadline { usleep(5_000) }
    }

    private static func listen(on address: ListenAddress) throws(HTTPServerError) -> Int32 {
        let family = address.family == .ipv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw .cannotListen(address: address.description, detail: String(cString: strerror(errno)))
        }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.family == .ipv6 {
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withSocketAddress(address) { pointer, length in bind(descriptor, pointer, length) }
        guard bound == 0, Glibc.listen(descriptor, 512) == 0 else {
            let detail = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotListen(address: address.description, detail: detail)
        }
        return descriptor
    }

    private static func boundPort(_ descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }

    private static func withSocketAddress<T>(
        _ address: ListenAddress, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    )
        -> T
    {
        switch address.family {
        case .ipv4:
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = address.port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = address.port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}

/// The accepting thread: admits each connection against the caps and starts its thread, or
/// answers 503 and closes it.
private final class Listener: Sendable {
    private let descriptor: Int32
    /// Written to wake the accepting thread for stop.
    private let wake: (read: Int32, write: Int32)
    private let thread: Mutex<pthread_t?>

    init?(descriptor: Int32, limits: HTTPServerLimits, table: ConnectionTable, handler: any HTTPHandler) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.descriptor = descriptor
        let wake = (read: pipeEnds[0], write: pipeEnds[1])
        self.wake = wake
        let started = startThread(stackSize: 256 * 1024, joinable: true) {
            Self.acceptLoop(descriptor: descriptor, wake: wake.read, limits: limits, table: table, handler: handler)
        }
        guard let started else {
            close(wake.read)
            close(wake.write)
            return nil
        }
        thread = Mutex(started)
    }

    /// Stops accepting and closes the listening socket (new connections are refused).
    func stop() {
        guard
            let running = thread.withLock({ thread in
                defer { thread = nil }; return thread
            })
        else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
        pthread_join(running, nil)
        close(descriptor)
        close(wake.read)
        close(wake.write)
    }

    private static func acceptLoop(
        descriptor: Int32, wake: Int32, limits: HTTPServerLimits, table: ConnectionTable, handler: any HTTPHandler
    ) {
        var entries = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            entries[0].revents = 0
            entries[1].revents = 0
            let ready = poll(&entries, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 || entries[1].revents != 0 { return }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(descriptor, $0, &length)
                }
            }
            guard client >= 0 else {
                // Out of descriptors (or a connection gone before it was taken): wait a little
                // rather than spin.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client, address: peerAddress(storage), limits: limits, table: table, handler: handler)
        }
    }

    private static func serve(
        _ client: Int32, address: [UInt8], limits: HTTPServerLimits, table: ConnectionTable, handler: any HTTPHandler
    ) {
        var one: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let message: String
        switch table.admit(client, address: address) {
        case .success(let id):
            let connection = HTTPConnection(descriptor: client, id: id, handler: handler, limits: limits, table: table)
            if startThread(stackSize: limits.threadStackSize, { connection.run() }) != nil { return }
            table.remove(id)
            message = "the server cannot start another connection now"
        case .failure(.full(let cap)): message = "too many connections (at most \(cap)); try again in a second"
        case .failure(.fullForAddress(let cap)):
            message = "too many connections from one address (at most \(cap)); try again in a second"
        }
        handler.finished(label: "other", status: 503, seconds: 0)
        let response = HTTPServerResponse.error(503, message, headers: [("Retry-After", "1")])
        if case .bytes(let body) = response.body {
            // Without waiting: a client that does not read loses the answer, not a thread.
            let bytes = ResponseEncoding.wire(
                response, body: body, method: "GET", acceptEncoding: nil, ifNoneMatch: nil, close: true)
            _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        shutdown(client, Int32(SHUT_WR))
        close(client)
    }

    /// The client's address bytes (4 for IPv4, 16 for IPv6; an IPv4-mapped IPv6 address as IPv4).
    private static func peerAddress(_ storage: sockaddr_storage) -> [UInt8] {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw -> [UInt8] in
            if storage.ss_family == sa_family_t(AF_INET) {
                return raw.withMemoryRebound(to: sockaddr_in.self) { pointer in
                    withUnsafeBytes(of: pointer[0].sin_addr) { Array($0) }
                }
            }
            let bytes = raw.withMemoryRebound(to: sockaddr_in6.self) { pointer in
                withUnsafeBytes(of: pointer[0].sin6_addr) { Array($0) }
            }
            if bytes[..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) { return Array(bytes[12...]) }
            return bytes
        }
    }
}
