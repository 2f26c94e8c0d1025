import AggTestKit
import Dispatch
import Glibc

@testable import AggTransport

/// Helpers shared by the WebSocket suites.
enum WS {
    /// A script from JSON lines, failing the test on a bad line.
    static func script(_ lines: String...) throws -> WebSocketScript {
        try WebSocketScript(jsonLines: lines.joined(separator: "\n"))
    }

    /// What `messages` delivered, and how it ended (`nil`: normally).
    struct Outcome {
        var messages: [WebSocketMessage] = []
        var error: (any Error)?

        var texts: [String] { messages.map { String(decoding: $0.bytes, as: UTF8.self) } }
        var webSocketError: WebSocketError? { error as? WebSocketError }
    }

    /// Reads `connection.messages` to its end.
    static func drain(_ connection: WebSocketConnection) async -> Outcome {
        var outcome = Outcome()
        do {
            for try await message in connection.messages { outcome.messages.append(message) }
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// Reads `count` messages, then closes and reads to the end.
    static func take(_ count: Int, from connection: WebSocketConnection) async -> Outcome {
        var outcome = Outcome()
        do {
            for try await message in connection.messages {
                outcome.messages.append(message)
                if outcome.messages.count == count { connection.close() }
            }
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// The error `body` throws, if any.
    static func error(_ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// Monotonic seconds.
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// The close code of a close frame's payload.
    static func closeCode(_ frame: WebSocketReceivedFrame) -> UInt16? {
        frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
    }
}
