import AggCore

/// What a venue's ticker codec made of a stream, for its tests: every reading in order, the
/// quotes among them, and the replies it sent back.
///
/// A test connects the real `WebSocketClient` to `WebSocketLoopbackServer` and either hands the
/// connection's messages (as `StreamMessage`s) and its send function to `play` (which sends the
/// codec's subscribe messages first) or subscribes itself and calls `read`.
public struct TickerStreamTranscript: Sendable {
    /// Every reading, in the order the messages came.
    public var readings: [StreamReading] = []
    /// The messages sent back for `.reply` readings, in order.
    public var replies: [StreamMessage] = []
    /// How the messages ended, when they ended with an error (a close by the venue, a drop);
    /// `nil` when `done` held first or they ended normally.
    public var error: (any Error)?

    public init() {}

    /// `error`'s text, `nil` without one.
    public var failure: String? { error.map { "\($0)" } }

    /// The quotes of every `.quotes` reading, in order.
    public var quotes: [Quote] {
        readings.flatMap { reading -> [Quote] in
            if case .quotes(let quotes, _) = reading { return quotes }
            return []
        }
    }

    /// Reads `messages` through `codec` until `done` holds for the transcript (or the messages
    /// end), answering every `.reply` with `send`. Each message is read as received at
    /// `receivedAt`; an error that ends the messages is kept in `error`.
    public static func read<Messages: AsyncSequence>(
        _ messages: Messages, through codec: any TickerStreamCodec,
        until done: (TickerStreamTranscript) -> Bool, send: (StreamMessage) -> Void, receivedAt: Timestamp
    ) async -> TickerStreamTranscript where Messages.Element == StreamMessage {
        await read(messages, through: codec, until: done, send: send, clock: { receivedAt })
    }

    /// Subscribes `markets` with `codec`'s messages through `send`, then reads `messages`
    /// through `codec` (each received at `clock()`), answering every `.reply` through `send`,
    /// until `until` holds for the transcript or the messages end.
    public static func play<Messages: AsyncSequence>(
        _ codec: any TickerStreamCodec, markets: [Market], messages: Messages, send: (StreamMessage) -> Void,
        clock: () -> Timestamp, until: (TickerStreamTranscript) -> Bool
    ) async -> TickerStreamTranscript where Messages.Element == StreamMessage {
        for message in codec.subscribeMessages(for: markets) { send(message) }
        return await read(messages, through: codec, until: until, send: send, clock: clock)
    }

    static func read<Messages: AsyncSequence>(
        _ messages: Messages, through codec: any TickerStreamCodec, until done: (TickerStreamTranscript) -> Bool,
        send: (StreamMessage) -> Void, clock: () -> Timestamp
    ) async -> TickerStreamTranscript where Messages.Element == StreamMessage {
        var transcript = TickerStreamTranscript()
        do {
            for try await message in messages {
                let reading = codec.read(message, receivedAt: clock())
                transcript.readings.append(reading)
                if case .reply(let answer) = reading {
                    send(answer)
                    transcript.replies.append(answer)
                }
                if done(transcript) { break }
            }
        } catch {
            transcript.error = error
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
