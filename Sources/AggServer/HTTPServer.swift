import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// How much one client may take.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Connections at once; more wait in the kernel's backlog, then are refused.
    public var connections: Int
    /// Seconds a connection may be idle (no request, or a request that does not arrive) before
    /// it is closed: a slow client cannot hold a thread.
    public var idleTimeoutSeconds: Int
    /// Bytes of a connection's memory pool, which holds the request line and headers:
    /// libmicrohttpd answers 414 to a longer request line and 431 to larger headers.
    public var memoryPerConnection: Int
    /// The stack of each connection thread.
    public var threadStackSize: Int
    /// Seconds between keep-alive comments on an idle event stream: less than
    /// `idleTimeoutSeconds`, so that a quiet stream is not taken for an idle connection.
    public var streamKeepAliveSeconds: Double

    public static let standard = HTTPServerLimits(
        connections: 1024, idleTimeoutSeconds: 15, memoryPerConnection: 16 * 1024, threadStackSize: 512 * 1024,
        streamKeepAliveSeconds: 10)

    public init(
        connections: Int, idleTimeoutSeconds: Int, memoryPerConnection: Int, threadStackSize: Int,
        streamKeepAliveSeconds: Double
    ) {
        self.connections = connections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.memoryPerConnection = memoryPerConnection
        self.threadStackSize = threadStackSize
        self.streamKeepAliveSeconds = streamKeepAliveSeconds
    }
}

/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotListen(address: String, detail: String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let detail): "cannot listen on \(address): \(detail)"
        }
    }
}

/// An HTTP/1.1 server on libmicrohttpd: one thread per connection (bounded by
/// `HTTPServerLimits.connections`), with the request line, headers and idle time bounded by
/// libmicrohttpd itself, which answers malformed and oversized requests without calling us.
///
/// Every request goes to the handler on its connection's thread. `stop()` (also on `deinit`)
/// ends event streams, then stops the daemon, which waits for the connection threads.
public final class HTTPServer: Sendable {
    /// The address listened on, with the port the kernel chose when 0 was asked.
    public let address: ListenAddress
    private let daemon: Daemon
    private let context: Unmanaged<ServerContext>
    private let streams: EventStreamHub?

    /// Starts listening on `address`. `streams`, when given, is closed first on `stop()` so
    /// that connection threads waiting for events return.
    public init(
        address: ListenAddress, limits: HTTPServerLimits = .standard, handler: any HTTPHandler,
        streams: EventStreamHub? = nil
    ) throws(HTTPServerError) {
        let context = Unmanaged.passRetained(ServerContext(handler: handler, limits: limits))
        var flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue
        if address.family == .ipv6 { flags |= MHD_USE_IPv6.rawValue }
        errno = 0
        let pointer = Self.withSocketAddress(address) { socketAddress in
            agg_mhd_start(
                flags, socketAddress, accessHandler, context.toOpaque(), completedHandler,
                UInt32(limits.connections), UInt32(limits.idleTimeoutSeconds), limits.memoryPerConnection,
                limits.threadStackSize)
        }
        guard let pointer else {
            let code = errno
            context.release()
            throw .cannotListen(
                address: address.description,
                detail: code == 0 ? "libmicrohttpd could not start" : String(cString: strerror(code)))
        }
        self.daemon = Daemon(pointer)
        self.context = context
        self.streams = streams
        self.address = address.with(port: agg_mhd_port(pointer))
    }

    deinit {
        stop()
        context.release()
    }

    /// Stops accepting, ends event streams and waits for every connection thread. Idempotent.
    public func stop() {
        streams?.close()
        daemon.stop()
    }

    /// The base URL for clients: `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://\(address)" }

    private static func withSocketAddress<T>(_ address: ListenAddress, _ body: (UnsafePointer<sockaddr>) -> T) -> T {
        switch address.family {
        case .ipv4:
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = address.port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .ipv6:
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = address.port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }
}

/// Owns the daemon pointer.
///
/// `@unchecked Sendable` at the libmicrohttpd (C) boundary: the pointer is only passed to
/// `MHD_stop_daemon`, once, under the mutex; libmicrohttpd's own threads use it meanwhile, as
/// it is designed to.
private final class Daemon: @unchecked Sendable {
    /// The pointer's bits while running, 0 once stopped.
    private let running: Mutex<Int>

    init(_ pointer: OpaquePointer) {
        running = Mutex(Int(bitPattern: UnsafeRawPointer(pointer)))
    }

    func stop() {
        let bits = running.withLock { running in
            defer { running = 0 }
            return running
        }
        if let pointer = OpaquePointer(bitPattern: bits) { MHD_stop_daemon(pointer) }
    }
}

/// What the C callbacks get back through their closure argument.
private final class ServerContext: Sendable {
    let handler: any HTTPHandler
    let limits: HTTPServerLimits

    init(handler: any HTTPHandler, limits: HTTPServerLimits) {
        self.handler = handler
        self.limits = limits
    }
}

/// One request's state, kept by libmicrohttpd in the request's context pointer from its first
/// callback to the completion callback, which are called one after the other (on the
/// connection's thread, or at the daemon's stop), never at once.
private final class RequestState {
    let start: UInt64
    var label = "other"
    var status = 0
    var responded = false
    var bodyBytes = 0

    init(start: UInt64) {
        self.start = start
    }
}

/// The most request-body bytes read (and thrown away: every route is GET) before 413.
private let bodyLimit = 16 * 1024

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Collects query arguments during `MHD_get_connection_values` (synchronous, one thread).
private final class ArgumentList {
    var items: [HTTPServerRequest.Argument] = []
}

private let accessHandler: MHD_AccessHandlerCallback = {
    closure, connection, url, method, _, _, uploadSize, requestContext in
    guard let closure, let connection, let url, let method, let requestContext else { return MHD_Result.NO }
    let context = Unmanaged<ServerContext>.fromOpaque(closure).takeUnretainedValue()
    let methodText = String(cString: method)
    guard let pointer = requestContext.pointee else {
        // The first call comes with the headers. A GET is answered on the next call, once the
        // request is complete, so that the connection can be kept alive; any other method is
        // answered now (405 or 404), and its body is not read.
        let state = RequestState(start: monotonicNanoseconds())
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        if methodText == "GET" || methodText == "HEAD" { return MHD_Result.YES }
        return respond(connection, url: url, method: methodText, state: state, context: context)
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if let uploadSize, uploadSize.pointee > 0 {
        // A GET with a body: the body is thrown away, up to a limit.
        state.bodyBytes += uploadSize.pointee
        uploadSize.pointee = 0
        guard state.bodyBytes > bodyLimit, !state.responded else { return MHD_Result.YES }
        state.responded = true
        state.status = 413
        return queue(.error(413, "a request body is not expected"), on: connection, limits: context.limits)
    }
    if state.responded { return MHD_Result.YES }
    return respond(connection, url: url, method: methodText, state: state, context: context)
}

/// Builds the request, asks the handler and queues its answer.
private func respond(
    _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: String, state: RequestState,
    context: ServerContext
) -> MHD_Result {
    let arguments = ArgumentList()
    _ = MHD_get_connection_values(
        connection, .GET_ARGUMENT_KIND,
        { list, _, key, value in
            guard let list, let key else { return MHD_Result.YES }
            Unmanaged<ArgumentList>.fromOpaque(list).takeUnretainedValue().items.append(
                .init(name: String(cString: key), value: value.map { String(cString: $0) }))
            return MHD_Result.YES
        }, Unmanaged.passUnretained(arguments).toOpaque())
    let request = HTTPServerRequest(
        method: method, path: String(cString: url), arguments: arguments.items,
        authorization: MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization").map {
            String(cString: $0)
        })
    let response = context.handler.respond(to: request)
    state.label = context.handler.label(for: request)
    state.status = response.status
    state.responded = true
    return queue(response, on: connection, limits: context.limits)
}

private let completedHandler: MHD_RequestCompletedCallback = { closure, _, requestContext, _ in
    guard let closure, let pointer = requestContext?.pointee else { return }
    requestContext?.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
    guard state.responded else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(closure).takeUnretainedValue()
    let seconds = Double(monotonicNanoseconds() - state.start) / 1e9
    context.handler.finished(label: state.label, status: state.status, seconds: seconds)
}

private func queue(_ response: HTTPServerResponse, on connection: OpaquePointer, limits: HTTPServerLimits)
    -> MHD_Result
{
    let created: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        created = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .events(let subscription):
        let reader = Unmanaged.passRetained(
            EventStreamReader(subscription: subscription, keepAliveSeconds: limits.streamKeepAliveSeconds))
        created = MHD_create_response_from_callback(
            UInt64.max, 16 * 1024, eventReader, reader.toOpaque(), eventReaderFree)
        if created == nil { reader.release() }
    }
    guard let created else { return MHD_Result.NO }
    defer { MHD_destroy_response(created) }
    for header in response.headers { _ = MHD_add_response_header(created, header.name, header.value) }
    if case .events = response.body {
        _ = MHD_add_response_header(created, "Content-Type", "text/event-stream")
        _ = MHD_add_response_header(created, "Cache-Control", "no-store")
    }
    return MHD_queue_response(connection, UInt32(response.status), created)
}

/// Feeds one event stream to libmicrohttpd, which calls it on the connection's own thread
/// whenever the socket can take more.
///
/// `@unchecked Sendable` at the libmicrohttpd (C) boundary: `pending` and `offset` are only
/// touched by the content-reader callback, which libmicrohttpd calls on one connection thread
/// at a time, and by the free callback after the last read.
private final class EventStreamReader: @unchecked Sendable {
    let subscription: EventSubscription
    let keepAliveSeconds: Double
    private var pending: [UInt8] = []
    private var offset = 0

    init(subscription: EventSubscription, keepAliveSeconds: Double) {
        self.subscription = subscription
        self.keepAliveSeconds = keepAliveSeconds
    }

    /// Bytes written into `buffer`, or libmicrohttpd's end-of-stream (-1) or error (-2) codes.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if offset == pending.count {
            switch subscription.next(waiting: keepAliveSeconds) {
            case .event(let bytes): pending = bytes
            case .idle: pending = Array(": keep-alive\n\n".utf8)
            case .end(let dropped): return dropped ? -2 : -1
            }
            offset = 0
        }
        let count = min(capacity, pending.count - offset)
        pending.withUnsafeBytes { source in
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: source.baseAddress.unsafelyUnwrapped + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

private let eventReader: MHD_ContentReaderCallback = { closure, _, buffer, capacity in
    guard let closure, let buffer else { return -2 }
    return Unmanaged<EventStreamReader>.fromOpaque(closure).takeUnretainedValue().read(
        into: buffer, capacity: capacity)
}

private let eventReaderFree: MHD_ContentReaderFreeCallback = { closure in
    guard let closure else { return }
    let reader = Unmanaged<EventStreamReader>.fromOpaque(closure).takeRetainedValue()
    reader.subscription.cancel()
}
