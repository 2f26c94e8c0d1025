import AggCore
import CCurl
import CWslay
import Glibc

/// One WebSocket connection on the engine thread, through its phases: libcurl connects (its own
/// multi handle, driven by the engine's poll through the socket and timer callbacks), the
/// handshake is written and checked, wslay frames the open connection, and the end is reported
/// once, on the connection's message stream.
///
/// Each connection has a multi handle of its own: a connect-only connection lives in its multi
/// handle's connection cache, where a shared cache would let the connecting of another socket
/// prune it (an idle connection with unread input counts as dead there). libcurl and wslay call
/// back with an unretained pointer to this object, which is safe because the engine holds the
/// session until it is finished, and finishing detaches both libraries first.
///
/// Not thread-safe: only the engine thread uses a session.
final class WebSocketSession {
    private enum Phase {
        case connecting, handshaking, open, closing, finished
    }

    /// The URL connected to.
    let url: WebSocketURL
    private let opening: WebSocketOpening
    private let easy: CurlEasyHandle
    private var multi: UnsafeMutableRawPointer?
    private var phase = Phase.connecting

    // Connecting: what libcurl asked to watch.
    private var curlSockets: [Int32: Int32] = [:]
    private var curlTimer: UInt64?

    // Handshaking.
    private var socket: Int32 = -1
    private let handshake: WebSocketHandshake
    private var requestSent = 0
    private var answer: [UInt8] = []
    /// The end of the handshake or of the closing handshake.
    private var phaseDeadline: UInt64?

    // Open.
    private var wslay: OpaquePointer?
    /// Bytes that came after the handshake answer, read by wslay before the socket.
    private var pendingInput: [UInt8] = []
    private var pendingOffset = 0
    private var lastReceived: UInt64 = 0
    private var pingSentAt: UInt64?
    private var peerClose: (code: UInt16?, reason: String)?
    private var localCloseRequested = false
    /// wslay failed the connection itself (an oversize message, a protocol violation).
    private var wslayFailed = false
    private var endOfStream = false
    private var ioFailure: String?

    private var configuration: WebSocketConfiguration { opening.configuration }

    private init(opening: WebSocketOpening, easy: CurlEasyHandle, multi: UnsafeMutableRawPointer) {
        self.opening = opening
        self.url = opening.url
        self.easy = easy
        self.multi = multi
        handshake = WebSocketHandshake(
            url: opening.url, userAgent: opening.configuration.userAgent, headers: opening.headers)
    }

    deinit {
        teardown()
    }

    /// Starts connecting for `opening`, or fails it and returns `nil`.
    static func start(_ opening: WebSocketOpening) -> WebSocketSession? {
        guard curlIsInitialised, let easy = CurlEasyHandle(), let multi = curl_multi_init() else {
            refuse(opening, WebSocketError.connection(url: opening.url.original, detail: "libcurl could not start"))
            return nil
        }
        let session = WebSocketSession(opening: opening, easy: easy, multi: multi)
        do {
            try session.configure()
        } catch {
            session.finish(error)
            return nil
        }
        return session
    }

    /// Fails an opening that never got a session.
    static func refuse(_ opening: WebSocketOpening, _ error: any Error) {
        opening.messages.finish(throwing: error)
        opening.pongs.finish()
        opening.opened.resume(throwing: error)
    }

    var isFinished: Bool { phase == .finished }

    // MARK: - Poll loop interface

    /// The sockets to poll and for what.
    func pollRequests() -> [(Int32, Int16)] {
        switch phase {
        case .connecting:
            return curlSockets.compactMap { fd, what in
                var events: Int16 = 0
                if what & Int32(CURL_POLL_IN) != 0 { events |= Int16(POLLIN) }
                if what & Int32(CURL_POLL_OUT) != 0 { events |= Int16(POLLOUT) }
                return events == 0 ? nil : (fd, events)
            }
        case .handshaking:
            return [(socket, Int16(requestSent < handshake.request.count ? POLLOUT : POLLIN))]
        case .open, .closing:
            guard let wslay else { return [] }
            var events: Int16 = 0
            if wslay_event_want_read(wslay) != 0 { events |= Int16(POLLIN) }
            if wslay_event_want_write(wslay) != 0 { events |= Int16(POLLOUT) }
            return events == 0 ? [] : [(socket, events)]
        case .finished:
            return []
        }
    }

    /// The next moment the session must act without waiting for its socket.
    var nextDeadline: UInt64? {
        switch phase {
        case .connecting: curlTimer
        case .handshaking, .closing: phaseDeadline
        case .open:
            pingSentAt.map { WebSocketClock.adding(configuration.keepAliveTimeout, to: $0) }
                ?? WebSocketClock.adding(configuration.keepAliveInterval, to: lastReceived)
        case .finished: nil
        }
    }

    /// Acts on `events` polled on `fd`.
    func serve(fd: Int32, events: Int16) {
        switch phase {
        case .connecting:
            var mask: Int32 = 0
            if events & Int16(POLLIN) != 0 { mask |= Int32(CURL_CSELECT_IN) }
            if events & Int16(POLLOUT) != 0 { mask |= Int32(CURL_CSELECT_OUT) }
            if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { mask |= Int32(CURL_CSELECT_ERR) }
            driveCurl(socket: fd, mask: mask)
        case .handshaking:
            advanceHandshake()
        case .open, .closing:
            pump(readable: events & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0)
        case .finished:
            break
        }
    }

    /// Acts on every deadline that has passed by `now`.
    func checkDeadlines(now: UInt64) {
        switch phase {
        case .connecting:
            if let timer = curlTimer, timer <= now {
                curlTimer = nil
                driveCurl(socket: -1, mask: 0)
            }
        case .handshaking:
            if let deadline = phaseDeadline, deadline <= now {
                finish(
                    WebSocketError.timeout(
                        url: url.original, stage: "handshake", seconds: configuration.handshakeTimeout))
            }
        case .open:
            if let sent = pingSentAt {
                if WebSocketClock.adding(configuration.keepAliveTimeout, to: sent) <= now {
                    finish(
                        WebSocketError.stalled(
                            url: url.original, seconds: configuration.keepAliveInterval + configuration.keepAliveTimeout
                        ))
                }
            } else if WebSocketClock.adding(configuration.keepAliveInterval, to: lastReceived) <= now {
                pingSentAt = now
                queue(opcode: 0x9, bytes: [])
            }
        case .closing:
            if let deadline = phaseDeadline, deadline <= now { finish(endError()) }
        case .finished:
            break
        }
    }

    // MARK: - Commands

    /// Queues a message or a ping and sends what the socket takes.
    func queue(opcode: UInt8, bytes: [UInt8]) {
        guard phase == .open, let wslay else { return }
        _ = bytes.withUnsafeBufferPointer { buffer in
            // wslay copies the message.
            var message = wslay_event_msg(opcode: opcode, msg: buffer.baseAddress, msg_length: buffer.count)
            return wslay_event_queue_msg(wslay, &message)
        }
        pump(readable: false)
    }

    /// Starts the closing handshake.
    func close(code: UInt16, reason: String, now: UInt64) {
        guard phase == .open, let wslay else { return }
        localCloseRequested = true
        let text = Array(reason.utf8.prefix(123))
        _ = text.withUnsafeBufferPointer { wslay_event_queue_close(wslay, code, $0.baseAddress, $0.count) }
        phase = .closing
        phaseDeadline = WebSocketClock.adding(configuration.closeTimeout, to: now)
        pump(readable: false)
    }

    /// Ends an opening whose caller was cancelled.
    func cancelOpening() {
        guard phase == .connecting || phase == .handshaking else { return }
        finish(CancellationError())
    }

    /// Ends the session with `error` (the engine's shutdown).
    func fail(_ error: WebSocketError) {
        finish(error)
    }

    // MARK: - Connecting

    private func configure() throws(WebSocketError) {
        guard let multi else { throw .connection(url: url.original, detail: "libcurl could not start") }
        let timeout = Self.milliseconds(configuration.connectTimeout)
        let settings: [CURLcode] = [
            easy.set(CURLOPT_URL, string: url.connectURL),
            easy.set(CURLOPT_NOSIGNAL, 1),
            easy.set(CURLOPT_CONNECT_ONLY, 1),
            easy.set(CURLOPT_CONNECTTIMEOUT_MS, timeout),
            easy.set(CURLOPT_SSL_VERIFYPEER, 1),
            easy.set(CURLOPT_SSL_VERIFYHOST, 2),
            easy.set(CURLOPT_PROTOCOLS_STR, string: "http,https"),
            // Through an HTTP proxy, ws:// too goes through a CONNECT tunnel: the upgrade request
            // is ours, in origin form, and a proxy would not forward it as a plain GET.
            easy.set(CURLOPT_HTTPPROXYTUNNEL, 1),
        ]
        if let failed = settings.first(where: { $0 != CURLE_OK }) {
            throw failed == CURLE_URL_MALFORMAT || failed == CURLE_UNSUPPORTED_PROTOCOL
                ? .invalidURL(url.original) : .connection(url: url.original, detail: easy.errorText(for: failed))
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = agg_curl_multi_set_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = agg_curl_multi_set_pointer(multi, CURLMOPT_TIMERDATA, context)
        _ = agg_curl_multi_set_socket_callback(multi) { _, fd, what, context, _ in
            guard let context else { return 0 }
            let session = Unmanaged<WebSocketSession>.fromOpaque(context).takeUnretainedValue()
            if what == Int32(CURL_POLL_REMOVE) {
                session.curlSockets.removeValue(forKey: fd)
            } else {
                session.curlSockets[fd] = what
            }
            return 0
        }
        _ = agg_curl_multi_set_timer_callback(multi) { _, milliseconds, context in
            guard let context else { return 0 }
            let session = Unmanaged<WebSocketSession>.fromOpaque(context).takeUnretainedValue()
            session.curlTimer =
                milliseconds < 0 ? nil : WebSocketClock.adding(Double(milliseconds) / 1000, to: WebSocketClock.now())
            return 0
        }
        let added = curl_multi_add_handle(multi, easy.raw)
        guard added == CURLM_OK else {
            throw .connection(url: url.original, detail: String(cString: curl_multi_strerror(added)))
        }
    }

    /// libcurl takes whole milliseconds, where 0 means none: round up, at least 1.
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max((seconds * 1000).rounded(.up), 1), Double(Int32.max)))
    }

    private func driveCurl(socket fd: Int32, mask: Int32) {
        guard let multi else { return }
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, fd, mask, &running)
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE else { continue }
            let code = message.pointee.data.result
            guard code == CURLE_OK else {
                finish(connectError(code))
                return
            }
            var active: curl_socket_t = -1
            guard agg_curl_get_socket(easy.raw, CURLINFO_ACTIVESOCKET, &active) == CURLE_OK, active >= 0 else {
                finish(WebSocketError.connection(url: url.original, detail: "libcurl kept no socket"))
                return
            }
            socket = active
            curlSockets = [:]
            curlTimer = nil
            phase = .handshaking
            phaseDeadline = WebSocketClock.adding(configuration.handshakeTimeout, to: WebSocketClock.now())
            advanceHandshake()
            return
        }
    }

    private func connectError(_ code: CURLcode) -> WebSocketError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            .timeout(url: url.original, stage: "connect", seconds: configuration.connectTimeout)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            .invalidURL(url.original)
        default:
            .connection(url: url.original, detail: easy.errorText(for: code))
        }
    }

    // MARK: - Handshake

    private func advanceHandshake() {
        while requestSent < handshake.request.count {
            var sent = 0
            let code = handshake.request.withUnsafeBytes { bytes in
                curl_easy_send(easy.raw, bytes.baseAddress.map { $0 + requestSent }, bytes.count - requestSent, &sent)
            }
            if code == CURLE_AGAIN { return }
            guard code == CURLE_OK else {
                finish(WebSocketError.connection(url: url.original, detail: easy.errorText(for: code)))
                return
            }
            requestSent += sent
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var received = 0
            let code = buffer.withUnsafeMutableBytes { curl_easy_recv(easy.raw, $0.baseAddress, $0.count, &received) }
            if code == CURLE_AGAIN { return }
            guard code == CURLE_OK else {
                finish(WebSocketError.connection(url: url.original, detail: easy.errorText(for: code)))
                return
            }
            guard received > 0 else {
                finish(
                    WebSocketError.handshakeInvalid(
                        url: url.original, detail: "the server closed the connection before answering the upgrade"))
                return
            }
            answer += buffer[..<received]
            if let end = WebSocketHandshake.endOfHead(in: answer) {
                do throws(WebSocketError) {
                    try handshake.check(head: answer[..<end], url: url.original)
                } catch {
                    finish(error)
                    return
                }
                pendingInput = Array(answer[end...])
                answer = []
                openFraming()
                return
            }
            guard answer.count <= WebSocketHandshake.maximumHeadSize else {
                finish(
                    WebSocketError.handshakeInvalid(
                        url: url.original,
                        detail: "the answer head is longer than \(WebSocketHandshake.maximumHeadSize) bytes"))
                return
            }
        }
    }

    // MARK: - Framing

    private func openFraming() {
        var callbacks = wslay_event_callbacks(
            recv_callback: { context, buffer, length, _, user in
                guard let user, let buffer else { return -1 }
                let session = Unmanaged<WebSocketSession>.fromOpaque(user).takeUnretainedValue()
                return session.receive(context, buffer, length)
            },
            send_callback: { context, data, length, _, user in
                guard let user, let data else { return -1 }
                let session = Unmanaged<WebSocketSession>.fromOpaque(user).takeUnretainedValue()
                return session.transmit(context, data, length)
            },
            genmask_callback: { _, buffer, length, _ in
                guard let buffer else { return -1 }
                var generator = SystemRandomNumberGenerator()
                for index in 0..<length { buffer[index] = UInt8.random(in: .min ... .max, using: &generator) }
                return 0
            },
            on_frame_recv_start_callback: nil,
            on_frame_recv_chunk_callback: nil,
            on_frame_recv_end_callback: nil,
            on_msg_recv_callback: { _, argument, user in
                guard let user, let argument else { return }
                let session = Unmanaged<WebSocketSession>.fromOpaque(user).takeUnretainedValue()
                let message = argument.pointee
                let bytes = message.msg.map { Array(UnsafeBufferPointer(start: $0, count: message.msg_length)) } ?? []
                session.received(opcode: message.opcode, bytes: bytes, statusCode: message.status_code)
            })
        var context: OpaquePointer?
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard wslay_event_context_client_init(&context, &callbacks, user) == 0, let context else {
            finish(WebSocketError.connection(url: url.original, detail: "wslay could not start"))
            return
        }
        wslay = context
        wslay_event_config_set_max_recv_msg_length(context, UInt64(configuration.maximumMessageSize))
        phase = .open
        phaseDeadline = nil
        lastReceived = WebSocketClock.now()
        opening.opened.resume()
        pump(readable: pendingOffset < pendingInput.count)
    }

    /// Lets wslay read (when the socket is readable) and write, then reports an end.
    private func pump(readable: Bool) {
        guard let wslay else { return }
        if readable || pendingOffset < pendingInput.count, wslay_event_want_read(wslay) != 0 {
            if wslay_event_recv(wslay) != 0 && !endOfStream && ioFailure == nil { wslayFailed = true }
        }
        if wslay_event_want_write(wslay) != 0 {
            if wslay_event_send(wslay) != 0 && !endOfStream && ioFailure == nil { wslayFailed = true }
        }
        evaluate()
    }

    /// Ends the session when the connection has ended, or moves it to closing when a close is
    /// on its way out.
    private func evaluate() {
        guard phase == .open || phase == .closing, let wslay else { return }
        if endOfStream || ioFailure != nil {
            finish(endError())
            return
        }
        let closeReceived = wslay_event_get_close_received(wslay) != 0
        let failedByWslay = wslayFailed || (wslay_event_get_read_enabled(wslay) == 0 && !closeReceived)
        guard closeReceived || failedByWslay || localCloseRequested else { return }
        let flushed = wslay_event_want_write(wslay) == 0 || wslay_event_get_close_sent(wslay) != 0
        if (closeReceived || failedByWslay) && flushed {
            finish(endError())
        } else if phase == .open {
            phase = .closing
            phaseDeadline = WebSocketClock.adding(configuration.closeTimeout, to: WebSocketClock.now())
        }
    }

    /// How the connection ended, `nil` when it ended as the client asked.
    private func endError() -> (any Error)? {
        if localCloseRequested && !wslayFailed { return nil }
        if let peerClose {
            return WebSocketError.closedByPeer(url: url.original, code: peerClose.code, reason: peerClose.reason)
        }
        // wslay stops reading after a failed read callback too: only a stop with the socket
        // still fine is wslay's own verdict on the frames.
        let stoppedByWslay = wslay.map { wslay_event_get_read_enabled($0) == 0 } ?? false
        if let wslay, wslayFailed || (stoppedByWslay && !endOfStream && ioFailure == nil) {
            let code = wslay_event_get_close_sent(wslay) != 0 ? wslay_event_get_status_code_sent(wslay) : 1002
            return code == 1009
                ? WebSocketError.messageTooLarge(url: url.original, limit: configuration.maximumMessageSize)
                : WebSocketError.protocolViolation(url: url.original, closeCode: code)
        }
        if let ioFailure { return WebSocketError.connection(url: url.original, detail: ioFailure) }
        return WebSocketError.dropped(url: url.original)
    }

    /// wslay's read callback: the bytes left over from the handshake, then the socket.
    private func receive(_ context: OpaquePointer?, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int) -> Int {
        if pendingOffset < pendingInput.count {
            let count = min(length, pendingInput.count - pendingOffset)
            for index in 0..<count { buffer[index] = pendingInput[pendingOffset + index] }
            pendingOffset += count
            if pendingOffset == pendingInput.count {
                pendingInput = []
                pendingOffset = 0
            }
            noteActivity()
            return count
        }
        var received = 0
        let code = curl_easy_recv(easy.raw, buffer, length, &received)
        if code == CURLE_AGAIN {
            wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
            return -1
        }
        if code != CURLE_OK {
            ioFailure = easy.errorText(for: code)
        } else if received == 0 {
            endOfStream = true
        } else {
            noteActivity()
            return received
        }
        wslay_event_set_error(context, WSLAY_ERR_CALLBACK_FAILURE.rawValue)
        return -1
    }

    /// wslay's write callback.
    private func transmit(_ context: OpaquePointer?, _ data: UnsafePointer<UInt8>, _ length: Int) -> Int {
        var sent = 0
        let code = curl_easy_send(easy.raw, data, length, &sent)
        if code == CURLE_AGAIN {
            wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
            return -1
        }
        guard code == CURLE_OK else {
            ioFailure = easy.errorText(for: code)
            wslay_event_set_error(context, WSLAY_ERR_CALLBACK_FAILURE.rawValue)
            return -1
        }
        return sent
    }

    private func noteActivity() {
        lastReceived = WebSocketClock.now()
        pingSentAt = nil
    }

    /// wslay's message callback: data messages go to the stream, pongs to theirs, a close is
    /// remembered.
    private func received(opcode: UInt8, bytes: [UInt8], statusCode: UInt16) {
        switch opcode {
        case 0x1: opening.messages.yield(WebSocketMessage(kind: .text, bytes: bytes))
        case 0x2: opening.messages.yield(WebSocketMessage(kind: .binary, bytes: bytes))
        case 0xA: opening.pongs.yield(bytes)
        case 0x8:
            let reason = bytes.count > 2 ? String(decoding: bytes[2...], as: UTF8.self) : ""
            peerClose = (statusCode == 0 ? nil : statusCode, reason)
        default:
            break
        }
    }

    // MARK: - End

    private func finish(_ error: (any Error)?) {
        guard phase != .finished else { return }
        let wasOpen = phase == .open || phase == .closing
        phase = .finished
        teardown()
        if wasOpen {
            opening.pongs.finish()
            if let error {
                opening.messages.finish(throwing: error)
            } else {
                opening.messages.finish()
            }
        } else {
            Self.refuse(opening, error ?? CancellationError())
        }
    }

    /// Detaches wslay and libcurl; removing the connect-only handle closes its connection.
    private func teardown() {
        if let wslay {
            wslay_event_context_free(wslay)
            self.wslay = nil
        }
        if let multi {
            _ = agg_curl_multi_set_pointer(multi, CURLMOPT_SOCKETDATA, nil)
            _ = agg_curl_multi_set_pointer(multi, CURLMOPT_TIMERDATA, nil)
            _ = curl_multi_remove_handle(multi, easy.raw)
            curl_multi_cleanup(multi)
            self.multi = nil
        }
    }
}
