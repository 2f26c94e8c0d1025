import AggCore
import AggJSON
import CCrypto
import Foundation
import Glibc

/// One connection of the loopback WebSocket server: the handshake, then the script's steps.
struct WebSocketServerConnection {
    /// How long an `expect` step waits for the client: a bound for a client that never sends,
    /// long enough for a test process whose cooperative threads are busy on a loaded machine
    /// (a whole-suite run on 2 cores has kept a task from running for over a minute).
    static let expectSeconds = 120.0
    /// How long the server waits for the client's answer to its close.
    static let closeSeconds = 30.0
    /// How long a connection with nothing left to play waits for the client (the test ends
    /// sooner: stopping the server shuts the socket down).
    static let idleSeconds = 600.0

    let descriptor: Int32
    let index: Int
    let script: WebSocketScript
    let core: WebSocketServerCore
    private var reader: WebSocketFrameReader
    /// The 101 answer, when it leaves with the first step's frames.
    private var unsent: [UInt8] = []

    init(descriptor: Int32, index: Int, script: WebSocketScript, core: WebSocketServerCore) {
        self.descriptor = descriptor
        self.index = index
        self.script = script
        self.core = core
        reader = WebSocketFrameReader(descriptor: descriptor)
    }

    /// The accept value for `key`: base64(SHA-1(key + RFC 6455's GUID)).
    static func accept(for key: String) -> String {
        let input = Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)
        var digest = [UInt8](repeating: 0, count: 20)
        _ = input.withUnsafeBytes { source in
            digest.withUnsafeMutableBufferPointer { agg_sha1(source.baseAddress, source.count, $0.baseAddress) }
        }
        return Data(digest).base64EncodedString()
    }

    mutating func run() {
        guard let request = LoopbackRequest.read(from: descriptor) else { return }
        core.record(index) { $0.request = request }
        var steps = script.steps[...]
        if case .refuseHandshake(let status, let body)? = steps.first {
            let head = "HTTP/1.1 \(status) Refused\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            LoopbackSocket.sendAll(descriptor, Array((head + body).utf8))
            return
        }
        guard let key = checkUpgrade(request) else {
            LoopbackSocket.sendAll(descriptor, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
            return
        }
        var accept = Self.accept(for: key)
        if steps.first == .badAccept {
            accept = Self.accept(for: key + "x")
            steps = steps.dropFirst()
        }
        let head =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
        if case .send? = steps.first {
            // Frames that follow the handshake at once leave in the same write as the 101, as a
            // venue that greets on connect sends them: the client must take frames that arrive
            // with the answer head.
            unsent = Array(head.utf8)
        } else {
            guard LoopbackSocket.sendAll(descriptor, Array(head.utf8)) else { return }
        }
        for step in steps {
            guard perform(step) else { return }
        }
        serveUntilClosed()
    }

    /// The key of a valid upgrade request; records a violation otherwise.
    private func checkUpgrade(_ request: LoopbackRequest) -> String? {
        var problems: [String] = []
        if request.method != "GET" { problems.append("the upgrade request is \(request.method), not GET") }
        if request.header("Upgrade")?.lowercased() != "websocket" { problems.append("no Upgrade: websocket") }
        if !(request.header("Connection")?.lowercased().contains("upgrade") ?? false) {
            problems.append("no Connection: Upgrade")
        }
        if request.header("Sec-WebSocket-Version") != "13" { problems.append("no Sec-WebSocket-Version: 13") }
        let key = request.header("Sec-WebSocket-Key") ?? ""
        if Data(base64Encoded: key)?.count != 16 { problems.append("Sec-WebSocket-Key is not 16 bytes in base64") }
        guard problems.isEmpty else {
            core.record(index) { $0.violations += problems }
            return nil
        }
        return key
    }

    /// Plays one step; returns whether the connection goes on.
    private mutating func perform(_ step: WebSocketScriptStep) -> Bool {
        switch step {
        case .expect(let opcode, let data, let match):
            return expect(opcode, data: data, match: match)
        case .send(let opcode, let data, let fragments, let repeats):
            let message = WebSocketServerFrames.message(opcode: opcode.code, payload: data, fragments: fragments)
            var batch = unsent
            unsent = []
            for _ in 0..<repeats {
                batch += message
                if batch.count >= 256 * 1024 {
                    guard LoopbackSocket.sendAll(descriptor, batch) else { return false }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            return batch.isEmpty || LoopbackSocket.sendAll(descriptor, batch)
        case .refuseHandshake, .badAccept:
            violation("a handshake fault must be the script's first step")
            return false
        case .drop:
            return false
        case .stall:
            LoopbackSocket.waitUntilClosed(descriptor)
            return false
        case .malformed:
            // FIN with the reserved opcode 0x3 and no payload.
            return LoopbackSocket.sendAll(descriptor, [0x83, 0x00])
        case .oversize(let bytes):
            let payload = [UInt8](repeating: UInt8(ascii: "a"), count: bytes)
            if LoopbackSocket.sendAll(descriptor, WebSocketServerFrames.frame(opcode: 0x2, payload: payload[...])) {
                return true
            }
            // A client that refuses the message stops reading and closes, so the send fails:
            // record the close frame it sent first.
            while let frame = nextFrame(within: Self.closeSeconds), frame.opcode != 0x8 {}
            return false
        case .close(let code, let reason):
            closeAndWait(code: code, reason: reason)
            return false
        case .error(let data, let code):
            guard LoopbackSocket.sendAll(descriptor, WebSocketServerFrames.frame(opcode: 0x1, payload: data[...]))
            else { return false }
            closeAndWait(code: code, reason: "")
            return false
        }
    }

    /// Waits for the client's next message or control frame of kind `opcode`, answering pings
    /// on the way, and checks it against `data`.
    private mutating func expect(_ opcode: WebSocketScriptOpcode, data: [UInt8]?, match: WebSocketScriptMatch) -> Bool {
        var message: (opcode: UInt8, payload: [UInt8])?
        while message == nil {
            guard let frame = nextFrame(within: Self.expectSeconds) else {
                violation("no \(opcode.rawValue) message from the client within \(Self.expectSeconds) s")
                closeAndWait(code: 1008, reason: "expected a message")
                return false
            }
            switch frame.opcode {
            case 0x8 where opcode != .close:
                violation("the client closed while a \(opcode.rawValue) message was expected")
                LoopbackSocket.sendAll(descriptor, WebSocketServerFrames.close(code: closeCode(of: frame), reason: ""))
                return false
            case 0x9:
                LoopbackSocket.sendAll(
                    descriptor, WebSocketServerFrames.frame(opcode: 0xA, payload: frame.payload[...]))
                if opcode == .ping { message = (0x9, frame.payload) }
            case 0xA:
                if opcode == .pong { message = (0xA, frame.payload) }
            case 0x1, 0x2:
                guard let assembled = assemble(frame) else { return false }
                message = (frame.opcode, assembled)
            case 0x8:
                message = (0x8, frame.payload)
            default:
                violation("a frame with opcode \(frame.opcode) outside a message")
                closeAndWait(code: 1002, reason: "")
                return false
            }
        }
        guard let message else { return false }
        let wanted = opcode.code
        var problem: String?
        if message.opcode != wanted {
            problem = "expected a \(opcode.rawValue) message, got opcode \(message.opcode)"
        } else if let data, !Self.matches(message.payload, data, match) {
            problem =
                "expected \(opcode.rawValue) \(String(decoding: data, as: UTF8.self)) (\(match.rawValue)), got "
                + String(decoding: message.payload.prefix(500), as: UTF8.self)
        }
        if let problem {
            violation(problem)
            closeAndWait(code: 1008, reason: "unexpected message")
            return false
        }
        if message.opcode == 0x8 {
            LoopbackSocket.sendAll(
                descriptor, WebSocketServerFrames.close(code: closeCode(of: message.payload), reason: ""))
            return false
        }
        return true
    }

    private static func matches(_ payload: [UInt8], _ data: [UInt8], _ match: WebSocketScriptMatch) -> Bool {
        switch match {
        case .exact:
            return payload == data
        case .contains:
            guard data.count <= payload.count else { return false }
            if data.isEmpty { return true }
            return (0...(payload.count - data.count)).contains { payload[$0..<($0 + data.count)].elementsEqual(data) }
        case .json:
            guard let left = try? JSONParser.parse(payload), let right = try? JSONParser.parse(data) else {
                return false
            }
            return left == right
        }
    }

    /// The rest of a fragmented message that starts with `first`; `nil` when the client breaks
    /// off or sends something else in the middle.
    private mutating func assemble(_ first: WebSocketReceivedFrame) -> [UInt8]? {
        var payload = first.payload
        var fin = first.fin
        while !fin {
            guard let frame = nextFrame(within: Self.expectSeconds) else { return nil }
            switch frame.opcode {
            case 0x0:
                payload += frame.payload
                fin = frame.fin
            case 0x9:
                LoopbackSocket.sendAll(
                    descriptor, WebSocketServerFrames.frame(opcode: 0xA, payload: frame.payload[...]))
            case 0xA:
                continue
            default:
                violation("opcode \(frame.opcode) inside a fragmented message")
                closeAndWait(code: 1002, reason: "")
                return nil
            }
        }
        return payload
    }

    /// Answers pings and records frames until the client closes (echoing its close) or leaves.
    private mutating func serveUntilClosed() {
        while let frame = nextFrame(within: Self.idleSeconds) {
            switch frame.opcode {
            case 0x8:
                LoopbackSocket.sendAll(descriptor, WebSocketServerFrames.close(code: closeCode(of: frame), reason: ""))
                return
            case 0x9:
                LoopbackSocket.sendAll(
                    descriptor, WebSocketServerFrames.frame(opcode: 0xA, payload: frame.payload[...]))
            default:
                continue
            }
        }
    }

    /// Sends a close and waits (at most `closeSeconds`) for the client's.
    private mutating func closeAndWait(code: UInt16?, reason: String) {
        guard LoopbackSocket.sendAll(descriptor, WebSocketServerFrames.close(code: code, reason: reason)) else {
            return
        }
        while let frame = nextFrame(within: Self.closeSeconds), frame.opcode != 0x8 {}
    }

    /// The next frame, recorded; an unmasked one is a violation.
    private mutating func nextFrame(within seconds: Double) -> WebSocketReceivedFrame? {
        guard let frame = reader.next(within: seconds) else { return nil }
        core.record(index) { $0.frames.append(frame) }
        if !frame.masked { violation("an unmasked client frame (opcode \(frame.opcode))") }
        return frame
    }

    private func closeCode(of frame: WebSocketReceivedFrame) -> UInt16? {
        closeCode(of: frame.payload)
    }

    private func closeCode(of payload: [UInt8]) -> UInt16? {
        payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
    }

    private func violation(_ text: String) {
        core.record(index) { $0.violations.append(text) }
    }
}
