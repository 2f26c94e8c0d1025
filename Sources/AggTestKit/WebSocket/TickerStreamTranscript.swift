import AggCore

/// What a venue's stream said through its codec, message by message, as the core's stream
/// runner reads it: the venues' stream tests connect the real WebSocket client to a
/// `WebSocketLoopbackServer` playing the venue's frame script and hand the connection here.
public struct TickerStreamTranscript: Sendable {
    /// Every message's reading, in arrival order.
    public var readings: [StreamReading] = []
    /// How the messages ended, when they did before `until` held (a close, a drop).
    public var error: (any Error)?

    public init() {}

    /// The quotes of every reading, in order.
    public var quotes: [Quote] {
        readings.flatMap { reading -> [Quote] in
            if case .quotes(let quotes, _) = reading { return quotes }
            return []
        }
    }

    /// Subscribes `markets` with `codec`'s messages through `send`, then reads `messages`
    /// through `codec` (each received at `clock()`), answering every `.reply` through `send`,
    /// until `until` holds for the transcript or the messages end.
    public static func play<Messages: AsyncSequence>(
        _ codec: any TickerStreamCodec, markets: [Market], messages: Messages, send: (StreamMessage) -> Void,
        clock: () -> Timestamp, until: (TickerStreamTranscript) -> Bool
    ) async -> TickerStreamTranscript where Messages.Element == StreamMessage {
        for message in codec.subscribeMessages(for: markets) { send(message) }
        var transcript = TickerStreamTranscript()
        do {
            for try await message in messages {
                let reading = codec.read(message, receivedAt: clock())
                transcript.readings.append(reading)
                if case .reply(let answer) = reading { send(answer) }
                if until(transcript) { break }
            }
        } catch {
            transcript.error = error
        }
        return transcript
    }
}
