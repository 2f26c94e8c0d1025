import AggCore

/// The WebSocket client as the stream runner's connector (`VenueStream` in AggCore): the same
/// connections, with their errors told as `StreamFault`s.
extension WebSocketClient: WebSocketConnector {
    /// Connects as `connect(to:headers:)` does, for the stream runner: its errors are
    /// `StreamFault`s.
    public func connectStream(to url: String, headers: [HTTPHeader]) async throws -> any StreamConnection {
        let connection: WebSocketConnection
        do {
            connection = try await connect(to: url, headers: headers)
        } catch let error as WebSocketError {
            throw StreamFault(error)
        }
        return WebSocketStreamConnection(connection)
    }
}

/// A `WebSocketConnection` behind AggCore's `StreamConnection`: messages as `StreamMessage`,
/// the end as a `StreamFault`, pongs as they come. A task forwards the messages; it ends with the
/// connection, or when the reader abandons `messages` (which closes the connection).
final class WebSocketStreamConnection: StreamConnection {
    let messages: AsyncThrowingStream<StreamMessage, any Error>
    private let connection: WebSocketConnection

    let pongs: AsyncStream<Void>

    init(_ connection: WebSocketConnection) {
        self.connection = connection
        let (messages, continuation) = AsyncThrowingStream<StreamMessage, any Error>.makeStream()
        self.messages = messages
        let (pongs, pongContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.pongs = pongs
        // Ends with the connection, whose pongs end when it does.
        let pongForwarder = Task {
            for await _ in connection.pongs { pongContinuation.yield() }
            pongContinuation.finish()
        }
        pongContinuation.onTermination = { _ in pongForwarder.cancel() }
        let forwarder = Task {
            do {
                for try await message in connection.messages {
                    switch message.kind {
                    case .text: continuation.yield(.text(String(decoding: message.bytes, as: UTF8.self)))
                    case .binary: continuation.yield(.binary(message.bytes))
                    }
                }
                continuation.finish()
            } catch let error as WebSocketError {
                continuation.finish(throwing: StreamFault(error))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            forwarder.cancel()
            connection.close()
        }
    }

    func send(_ message: StreamMessage) {
        switch message {
        case .text(let text): connection.send(text: text)
        case .binary(let bytes): connection.send(binary: bytes)
        }
    }

    func ping() {
        connection.ping()
    }

    func close(code: UInt16) {
        connection.close(code: code)
    }
}

extension StreamFault {
    /// How the stream runner reads a WebSocket client's error.
    init(_ error: WebSocketError) {
        switch error {
        case .invalidURL, .connection, .timeout, .shutDown: self = .unreachable(error.description)
        case .handshakeRefused(_, let status): self = .handshakeRefused(status: status)
        case .handshakeInvalid(_, let detail): self = .handshakeInvalid(detail)
        case .closedByPeer(_, let code, let reason): self = .closed(code: code, reason: reason)
        case .dropped: self = .dropped
        case .messageTooLarge(_, let limit): self = .messageTooLarge(limit: limit)
        case .protocolViolation(_, let code): self = .protocolViolation(closeCode: code)
        case .stalled(_, let seconds): self = .stalled(silence: .milliseconds(Int64((seconds * 1000).rounded())))
        }
    }
}
