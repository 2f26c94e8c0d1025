#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// One client connection, served on its own thread: reads each request head within the head
/// deadline, refuses what is malformed or too large with the JSON error and a close, asks the
/// handler, and writes the answer (or the event stream) with the idle timeout on every write.
struct HTTPConnection {
    let descriptor: Int32
    let id: Int
    let handler: any HTTPHandler
    let limits: HTTPServerLimits
    let table: ConnectionTable

    /// What reading a head found.
    private enum HeadRead {
        /// The head's length, with its empty line.
        case complete(Int)
        /// Refused: answered with the refusal, then closed.
        case refused(HTTPRequestRefusal)
        /// The client left, or went quiet before the deadline mattered: closed without an answer.
        case gone
    }

    /// Serves requests until the client or the server ends the connection, then closes it.
    func run() {
        var buffer: [UInt8] = []
        while serveOne(&buffer) {}
        table.remove(id)
        close(descriptor)
    }

    /// Serves one request; whether to go on with the next.
    private func serveOne(_ buffer: inout [UInt8]) -> Bool {
        if buffer.isEmpty {
            // Draining: only a request already sent is served; none is waited for.
            let wait = table.setIdle(id, true) ? Double(limits.idleTimeoutSeconds) : 0
            guard case .bytes = ServerSocket.read(descriptor, into: &buffer, seconds: wait) else { return false }
            _ = table.setIdle(id, false)
        }
        let start = monotonicSeconds()
        let headLength: Int
        switch readHead(&buffer, start: start) {
        case .complete(let length): headLength = length
        case .refused(let refusal):
            refuse(refusal, start: start)
            return false
        case .gone: return false
        }
        let head: HTTPRequestHead
        let target: RequestTarget
        do throws(HTTPRequestRefusal) {
            head = try HTTPRequestHead.parse(buffer[..<(headLength - 4)], limits: limits)
            target = try RequestTarget.parse(head.target, maximumArguments: limits.queryArguments)
        } catch {
            refuse(error, start: start)
            return false
        }
        buffer.removeFirst(headLength)
        let readsBody = head.method == "GET" || head.method == "HEAD"
        if readsBody, head.contentLength > 0 {
            guard head.contentLength <= limits.bodyBytes else {
                refuse(HTTPRequestRefusal(413, "a request body is not expected"), start: start)
                return false
            }
            guard discardBody(head.contentLength, buffer: &buffer) else { return false }
        }
        let request = HTTPServerRequest(
            method: head.method, path: target.path, arguments: target.arguments,
            authorization: head.field("authorization"))
        let response = handler.respond(to: request)
        let label = handler.label(for: request)
        // Another method's body is not read: the connection cannot be reused after it.
        let close = !head.keepAlive || !readsBody || table.draining
        let sent: Bool
        switch response.body {
        case .bytes(let body):
            sent = ServerSocket.write(
                descriptor,
                ResponseEncoding.wire(
                    response, body: body, method: head.method, acceptEncoding: head.list("accept-encoding"),
                    ifNoneMatch: head.list("if-none-match"), close: close),
                seconds: Double(limits.idleTimeoutSeconds))
            handler.finished(label: label, status: response.status, seconds: monotonicSeconds() - start)
            if close, sent, !readsBody { ServerSocket.lingeringClose(descriptor) }
            return sent && !close
        case .events(let subscription):
            if head.method == "HEAD" {
                subscription.cancel()
                _ = ServerSocket.write(
                    descriptor,
                    ResponseEncoding.head(
                        status: response.status, headers: response.headers + Self.streamHeaders, contentLength: nil,
                        close: true), seconds: Double(limits.idleTimeoutSeconds))
            } else {
                stream(subscription, response: response, chunked: head.minorVersion == 1)
            }
            handler.finished(label: label, status: response.status, seconds: monotonicSeconds() - start)
            return false
        }
    }

    private static let streamHeaders = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]

    /// Reads until the head's empty line: the head's length with it, or the refusal to send
    /// (nil when the client left or sent nothing more).
    private func readHead(_ buffer: inout [UInt8], start: Double) -> HeadRead {
        var searched = 0
        let idle = Double(limits.idleTimeoutSeconds)
        while true {
            let end = Self.headEnd(buffer, from: searched)
            searched = max(0, buffer.count - 3)
            let lineEnd = buffer.firstIndex(of: 0x0A).map { $0 + 1 }
            if (lineEnd ?? buffer.count) > limits.requestLineBytes + 2 {
                return .refused(HTTPRequestRefusal(414, "the request line is over \(limits.requestLineBytes) bytes"))
            }
            if let lineEnd, (end ?? buffer.count) - lineEnd > limits.headerBytes + 2 {
                return .refused(HTTPRequestRefusal(431, "the header fields are over \(limits.headerBytes) bytes"))
            }
            if let end { return .complete(end) }
            let left = start + limits.headDeadlineSeconds - monotonicSeconds()
            guard left > 0 else {
                return .refused(
                    HTTPRequestRefusal(
                        408, "the request head did not arrive within \(Self.seconds(limits.headDeadlineSeconds)) s"))
            }
            switch ServerSocket.read(descriptor, into: &buffer, seconds: min(left, idle)) {
            case .bytes: continue
            case .closed: return .gone
            case .timedOut:
                // Quiet for the idle timeout before the deadline: the client is gone.
                if idle < left { return .gone }
            }
        }
    }

    /// The index just past `\r\n\r\n`, searching from `from`.
    private static func headEnd(_ buffer: [UInt8], from: Int) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = from
        while index + 3 < buffer.count {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// Reads and throws away `length` body bytes, the first of them already in `buffer`.
    private func discardBody(_ length: Int, buffer: inout [UInt8]) -> Bool {
        var left = length
        while true {
            let taken = min(left, buffer.count)
            buffer.removeFirst(taken)
            left -= taken
            if left == 0 { return true }
            guard case .bytes = ServerSocket.read(descriptor, into: &buffer, seconds: Double(limits.idleTimeoutSeconds))
            else { return false }
        }
    }

    /// Answers a request the server refuses itself, and closes.
    private func refuse(_ refusal: HTTPRequestRefusal, start: Double) {
        let response = HTTPServerResponse.error(refusal.status, refusal.message)
        guard case .bytes(let body) = response.body else { return }
        let bytes = ResponseEncoding.wire(
            response, body: body, method: "GET", acceptEncoding: nil, ifNoneMatch: nil, close: true)
        if ServerSocket.write(descriptor, bytes, seconds: Double(limits.idleTimeoutSeconds)) {
            ServerSocket.lingeringClose(descriptor)
        }
        handler.finished(label: "other", status: refusal.status, seconds: monotonicSeconds() - start)
    }

    /// Writes the stream's events until it ends (the server closes it: then the stream's end
    /// is sent cleanly) or the client stops reading.
    private func stream(_ subscription: EventSubscription, response: HTTPServerResponse, chunked: Bool) {
        defer { subscription.cancel() }
        let timeout = Double(limits.idleTimeoutSeconds)
        let head = ResponseEncoding.head(
            status: response.status, headers: response.headers + Self.streamHeaders, contentLength: nil, close: true,
            chunked: chunked)
        guard ServerSocket.write(descriptor, head, seconds: timeout) else { return }
        while true {
            let payload: [UInt8]
            switch subscription.next(waiting: limits.streamKeepAliveSeconds) {
            case .event(let bytes): payload = bytes
            case .idle: payload = Array(": keep-alive\n\n".utf8)
            case .end(let dropped):
                if !dropped, chunked { _ = ServerSocket.write(descriptor, Array("0\r\n\r\n".utf8), seconds: timeout) }
                if !dropped { ServerSocket.lingeringClose(descriptor, seconds: 0.2) }
                return
            }
            let framed =
                chunked ? Array((String(payload.count, radix: 16) + "\r\n").utf8) + payload + [0x0D, 0x0A] : payload
            guard ServerSocket.write(descriptor, framed, seconds: timeout) else { return }
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
