/// One complete message received on a WebSocket (fragments already joined).
public struct WebSocketMessage: Sendable, Equatable {
    /// The frame type the message came in.
    public enum Kind: Sendable, Equatable {
        case text
        case binary
    }

    /// Text or binary: the bytes are delivered as they came either way (Upbit and Bithumb send
    /// JSON in binary frames).
    public var kind: Kind
    /// The payload.
    public var bytes: [UInt8]

    /// Creates a message.
    public init(kind: Kind, bytes: [UInt8]) {
        self.kind = kind
        self.bytes = bytes
    }

    /// Creates a text message from `text`'s UTF-8.
    public static func text(_ text: String) -> WebSocketMessage {
        WebSocketMessage(kind: .text, bytes: Array(text.utf8))
    }

    /// Creates a binary message.
    public static func binary(_ bytes: [UInt8]) -> WebSocketMessage {
        WebSocketMessage(kind: .binary, bytes: bytes)
    }
}
