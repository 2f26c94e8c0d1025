/// Why a WebSocket connection could not be opened, or why it ended.
///
/// Every case names the URL; `closeCode` gives the RFC 6455 status code that describes the end
/// (the peer's own code, or 1006 for a connection that ended without a close frame).
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not a ws://, wss://, http:// or https:// URL with a host.
    case invalidURL(String)
    /// The TCP or TLS connection failed (libcurl's explanation in `detail`).
    case connection(url: String, detail: String)
    /// The connection (`stage` "connect") or the opening handshake (`stage` "handshake") took
    /// longer than its deadline of `seconds`.
    case timeout(url: String, stage: String, seconds: Double)
    /// The server answered the upgrade request with `status` instead of 101 (a 429, a 403, a 200).
    case handshakeRefused(url: String, status: Int)
    /// The server's 101 answer is not a valid WebSocket upgrade (a wrong `Sec-WebSocket-Accept`,
    /// no `Upgrade: websocket`, an extension that was not offered, a broken head).
    case handshakeInvalid(url: String, detail: String)
    /// The server closed the connection with a close frame; `code` is `nil` when the frame
    /// carried none (RFC 6455's 1005).
    case closedByPeer(url: String, code: UInt16?, reason: String)
    /// The TCP connection ended without a close frame (RFC 6455's 1006).
    case dropped(url: String)
    /// A message exceeded the limit of `limit` bytes; the client closed with 1009.
    case messageTooLarge(url: String, limit: Int)
    /// The server broke the framing rules (a reserved opcode, a masked frame, a bad control
    /// frame); the client closed with `closeCode`, 1002 unless wslay chose otherwise.
    case protocolViolation(url: String, closeCode: UInt16)
    /// Nothing arrived, not even the pong to the client's ping, within the keep-alive interval
    /// plus the keep-alive timeout (`seconds` in all).
    case stalled(url: String, seconds: Double)
    /// The client was released while the connection was open or opening.
    case shutDown(url: String)

    /// The RFC 6455 status code describing how the connection ended, when it did end.
    public var closeCode: UInt16? {
        switch self {
        case .closedByPeer(_, let code, _): code ?? 1005
        case .dropped, .stalled: 1006
        case .messageTooLarge: 1009
        case .protocolViolation(_, let code): code
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid WebSocket URL \(url)"
        case .connection(let url, let detail): "WebSocket connection to \(url) failed: \(detail)"
        case .timeout(let url, let stage, let seconds): "WebSocket \(stage) to \(url) took longer than \(seconds) s"
        case .handshakeRefused(let url, let status): "\(url) refused the WebSocket upgrade with HTTP \(status)"
        case .handshakeInvalid(let url, let detail): "invalid WebSocket handshake from \(url): \(detail)"
        case .closedByPeer(let url, let code, let reason):
            "\(url) closed the WebSocket with code \(code.map(String.init) ?? "none")"
                + (reason.isEmpty ? "" : " (\(reason))")
        case .dropped(let url): "\(url) dropped the WebSocket connection without a close frame"
        case .messageTooLarge(let url, let limit):
            "a WebSocket message from \(url) is larger than the limit of \(limit) bytes"
        case .protocolViolation(let url, let code):
            "\(url) broke the WebSocket protocol (closed with code \(code))"
        case .stalled(let url, let seconds):
            "the WebSocket stream from \(url) stalled: no data and no pong within \(seconds) s"
        case .shutDown(let url): "the WebSocket client was shut down (\(url))"
        }
    }
}
