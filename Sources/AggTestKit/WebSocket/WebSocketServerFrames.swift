import Dispatch
import Glibc

/// A frame a client sent, as the loopback WebSocket server read it.
public struct WebSocketReceivedFrame: Sendable, Equatable {
    /// The RFC 6455 opcode (0 for a continuation).
    public var opcode: UInt8
    /// Whether the frame ended its message.
    public var fin: Bool
    /// Whether the client masked it (RFC 6455 requires it of every client frame).
    public var masked: Bool
    /// The payload, unmasked.
    public var payload: [UInt8]
}

/// The test server's side of RFC 6455 framing, written here rather than taken from wslay so
/// that the client (which uses wslay) is checked against an independent reading of the RFC,
/// and so that the server can write the broken frames the client must refuse.
enum WebSocketServerFrames {
    /// One unmasked frame.
    static func frame(opcode: UInt8, payload: ArraySlice<UInt8>, fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
            }
        }
        bytes += payload
        return bytes
    }

    /// A message split into `fragments` frames (the first with the opcode, the rest
    /// continuations, FIN on the last).
    static func message(opcode: UInt8, payload: [UInt8], fragments: Int) -> [UInt8] {
        let parts = max(1, min(fragments, max(payload.count, 1)))
        let size = (payload.count + parts - 1) / max(parts, 1)
        var bytes: [UInt8] = []
        for index in 0..<parts {
            let start = min(index * size, payload.count)
            let end = index == parts - 1 ? payload.count : min(start + size, payload.count)
            bytes += frame(opcode: index == 0 ? opcode : 0, payload: payload[start..<end], fin: index == parts - 1)
        }
        return bytes
    }

    /// A close frame with `code` (none when `nil`) and `reason`.
    static func close(code: UInt16?, reason: String) -> [UInt8] {
        guard let code else { return frame(opcode: 0x8, payload: []) }
        return frame(opcode: 0x8, payload: ArraySlice([UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)))
    }
}

/// Reads client frames from a socket, with a deadline on each read.
struct WebSocketFrameReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next frame, or `nil` when the connection ends or nothing comes within `seconds`.
    mutating func next(within seconds: Double) -> WebSocketReceivedFrame? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(seconds, 0) * 1e9)
        while true {
            if let frame = parse() { return frame }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min((deadline - now) / 1_000_000 + 1, 1000)))
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            guard let chunk = LoopbackSocket.receive(descriptor, maximum: 65536) else { return nil }
            buffer += chunk
        }
    }

    private mutating func parse() -> WebSocketReceivedFrame? {
        guard buffer.count >= 2 else { return nil }
        let masked = buffer[1] & 0x80 != 0
        var length = UInt64(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = UInt64(buffer[2]) << 8 | UInt64(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            offset = 10
        }
        let maskOffset = offset
        if masked { offset += 4 }
        guard UInt64(buffer.count - offset) >= length else { return nil }
        let end = offset + Int(length)
        var payload = Array(buffer[offset..<end])
        if masked {
            let key = buffer[maskOffset..<(maskOffset + 4)].map { $0 }
            for index in payload.indices { payload[index] ^= key[index % 4] }
        }
        let frame = WebSocketReceivedFrame(
            opcode: buffer[0] & 0x0F, fin: buffer[0] & 0x80 != 0, masked: masked, payload: payload)
        buffer.removeFirst(end)
        return frame
    }
}
