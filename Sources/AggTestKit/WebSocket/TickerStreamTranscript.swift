import AggCore

/// What a venue's ticker codec made of a stream, for its tests: every reading in order, the
/// quotes among them, and the replies it sent back.
///
/// A test connects the real `WebSocketClient` to `WebSocketLoopbackServer`, sends the codec's
/// subscribe messages, and hands the connection's messages (as `StreamMessage`s) and its send
/// function to `read(_:through:until:send:receivedAt:)`.
public struct TickerStreamTranscript: Sendable, Equatable {
    /// Every reading, in the order the messages came.
    public var readings: [StreamReading] = []
    /// The messages sent back for `.reply` readings, in order.
    public var replies: [StreamMessage] = []
    /// How the messages ended, when they ended with an error (a close by the venue, a drop);
    /// `nil` when `done` held first or they ended normally.
    public var failure: String?

    public init() {}

    /// The quotes of every `.quotes` reading, in order.
    public var quotes: [Quote] {
        readings.flatMap { reading -> [Quote] in
            if case .quotes(let quotes, _) = reading { return quotes }
            return []
        }
    }

    /// Reads `messages` through `codec` until `done` holds for the transcript (or the messages
    /// end), answering every `.reply` with `send`. Each message is read as received at
    /// `receivedAt`; an error that ends the messages is kept in `failure`.
    public static func read<Messages: AsyncSequence>(
        _ messages: Messages, through codec: any TickerStreamCodec,
        until done: (TickerStreamTranscript) -> Bool, send: (StreamMessage) -> Void, receivedAt: Timestamp
    ) async -> TickerStreamTranscript where Messages.Element == StreamMessage {
        var transcript = TickerStreamTranscript()
        do {
            for try await message in messages {
                let reading = codec.read(message, receivedAt: receivedAt)
                transcript.readings.append(reading)
                if case .reply(let answer) = reading {
                    send(answer)
                    transcript.replies.append(answer)
                }
                if done(transcript) { break }
            }
        } catch {
            transcript.failure = "\(error)"
        }
        return transcript
    }
}

extension WebSocketScript {
    /// The text and binary messages the script sends, in order (each `repeat` times), for
    /// reading a fixture's frames through a codec without a connection.
    public var sentMessages: [StreamMessage] {
        steps.flatMap { step -> [StreamMessage] in
            guard case .send(let opcode, let data, _, let repeats) = step else { return [] }
            switch opcode {
            case .text: return Array(repeating: .text(String(decoding: data, as: UTF8.self)), count: repeats)
            case .binary: return Array(repeating: .binary(data), count: repeats)
            case .ping, .pong, .close: return []
            }
        }
    }
}
