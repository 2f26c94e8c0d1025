/// Why a venue's stream is down: what the transport or the venue did. The runner reports it once
/// per outage (`VenueStreamState.down`), then reconnects.
public enum StreamFault: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TCP or TLS connection could not be made, or timed out (the transport's explanation).
    case unreachable(String)
    /// The venue answered the upgrade request with `status` instead of 101 (a 429, a 403).
    case handshakeRefused(status: Int)
    /// The venue's 101 answer is not a valid WebSocket upgrade (a wrong `Sec-WebSocket-Accept`).
    case handshakeInvalid(String)
    /// The venue closed the connection with `code` (`nil`: a close frame without a code).
    case closed(code: UInt16?, reason: String)
    /// The connection ended without a close frame.
    case dropped
    /// Nothing arrived for `silence`: the runner's silence limit, or the transport's keep-alive
    /// ping that got no pong.
    case stalled(silence: Duration)
    /// The venue broke the framing rules; the client closed with `closeCode`.
    case protocolViolation(closeCode: UInt16)
    /// A message was larger than `limit` bytes; the client closed with 1009.
    case messageTooLarge(limit: Int)
    /// The venue's own error message (`StreamReading.refused`).
    case refused(code: String, message: String)

    public var description: String {
        switch self {
        case .unreachable(let detail): "stream unreachable: \(detail)"
        case .handshakeRefused(let status): "stream refused with HTTP \(status)"
        case .handshakeInvalid(let detail): "invalid stream handshake: \(detail)"
        case .closed(let code, let reason):
            "stream closed with code \(code.map(String.init) ?? "none")" + (reason.isEmpty ? "" : " (\(reason))")
        case .dropped: "stream dropped without a close frame"
        case .stalled(let silence): "stream stalled: nothing received for \(StreamDurationText.seconds(silence)) s"
        case .protocolViolation(let code): "stream broke the WebSocket protocol (closed with code \(code))"
        case .messageTooLarge(let limit): "stream sent a message over \(limit) bytes (closed with code 1009)"
        case .refused(let code, let message): "stream error \(code): \(message)"
        }
    }
}

/// Durations as people read them in messages.
enum StreamDurationText {
    /// Whole milliseconds of `duration` (rounded down), saturating.
    static func milliseconds(_ duration: Duration) -> Int64 { duration.wholeMilliseconds }

    /// `duration` in seconds with up to three decimals and no trailing zeros: `10`, `0.25`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = milliseconds.magnitude
        let fraction = magnitude % 1000
        guard fraction != 0 else { return sign + String(magnitude / 1000) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(magnitude / 1000).\(digits)"
    }
}
