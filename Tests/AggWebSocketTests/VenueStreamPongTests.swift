import AggCore
import AggTestKit
import Testing

@testable import AggTransport

/// Pongs are life: a venue kept open by WebSocket pings on a quiet market (no data) is not a
/// stalled stream, and one that answers nothing is. On the system clock, as agg runs it: bounds
/// wall-clock time (measured against the silence limit, generous for a loaded machine: 10 s more).
@Suite("Stream runner and pongs: no data and no pong past the silence limit is a stall", .timeLimit(.minutes(2)))
struct VenueStreamPongTests {
    /// A ping every 200 ms and a 2 s silence limit: ten pongs come within the limit.
    static let silence = Duration.seconds(2)
    static let descriptor = Sample.descriptor(keepAlive: .pingFrame(every: .milliseconds(200)), silenceLimit: silence)

    /// The sample stream against `server`, its events logged as they come. The first backoff is
    /// 30 s, so a test sees one connection.
    static func start(_ server: WebSocketLoopbackServer, into log: EventLog) throws -> Task<Void, Never> {
        let stream = try VenueStream(
            descriptor: descriptor, codec: SampleTickerCodec(), url: server.url(), markets: [Sample.btc],
            connector: WebSocketClient(), clock: SystemStreamClock(),
            policy: StreamRetryPolicy(
                initialDelay: .seconds(30), maximumDelay: .seconds(30), fallbackAfter: .seconds(60)),
            jitterSeed: 42)
        return Task { for await event in stream.events() { log.append(event) } }
    }

    static func states(_ log: EventLog) -> [VenueStreamState] {
        log.events.compactMap {
            guard case .state(0, let state) = $0 else { return nil }
            return state
        }
    }

    static func pings(_ server: WebSocketLoopbackServer) -> Int {
        server.connections.first?.frames.filter { $0.opcode == 0x9 }.count ?? 0
    }

    @Test("a venue that sends no data but answers every ping stays live past three silence limits")
    func pongsKeepTheStreamLive() async throws {
        // One ticker, then nothing: the server only answers pings.
        let server = try WebSocketLoopbackServer(
            script: WebSocketScript(jsonLines: Sample.healthy.joined(separator: "\n")))
        let log = EventLog()
        let runner = try Self.start(server, into: log)
        #expect(await RealTime.poll(within: 20) { Self.states(log).contains(.live) && !log.events.isEmpty })
        #expect(await RealTime.poll(within: 20) { Self.pings(server) >= 1 })
        // Three silence limits after the first ping: without pongs counted, the stall came after one.
        let stalled = await RealTime.poll(within: 3 * 2) {
            Self.states(log).contains { if case .down = $0 { true } else { false } }
        }
        let pings = Self.pings(server)
        runner.cancel()
        await runner.value
        #expect(!stalled)
        #expect(Self.states(log).prefix(2) == [.connecting(attempt: 1, waited: .zero), .live])
        // A ping every 200 ms for 6 s, each answered (a loaded machine sends fewer).
        #expect(pings >= 5)
        #expect(server.connections.count == 1)
    }

    @Test("a venue that answers nothing, not even the pings, is down (stalled) within its silence limit")
    func noPongIsAStall() async throws {
        let server = try WebSocketLoopbackServer(
            script: WebSocketScript(jsonLines: (Sample.healthy + [#"{"fault":"stall"}"#]).joined(separator: "\n")))
        let log = EventLog()
        let runner = try Self.start(server, into: log)
        #expect(await RealTime.poll(within: 20) { Self.states(log).contains(.live) })
        let stalled = await RealTime.poll(within: 2 + 10) {
            Self.states(log).contains(.down(.stalled(silence: Self.silence)))
        }
        // From the moment the stream's last message (its one ticker) reached the log, not the
        // moment the poll above noticed the stream live, which can be a poll step later.
        let lastMessage = try #require(
            log.lastArrival {
                if case .quotes = $0 { true } else { false }
            })
        let elapsed = WS.now() - lastMessage
        runner.cancel()
        await runner.value
        #expect(stalled)
        #expect(
            Array(Self.states(log).prefix(3)) == [
                .connecting(attempt: 1, waited: .zero), .live, .down(.stalled(silence: Self.silence)),
            ])
        // The silence counts from the last message, which came after the stream went live.
        #expect(elapsed >= 1.9)
        #expect(elapsed < 2 + 10)
    }
}
