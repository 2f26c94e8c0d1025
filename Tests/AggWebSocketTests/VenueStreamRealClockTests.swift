import AggCore
import AggTestKit
import Testing

@testable import AggTransport

/// The stream runner on the system clock, as agg runs it: bounds wall-clock time (a stall must be
/// noticed after its silence limit, never before, and generously soon after on a loaded machine).
@Suite(
    "Stream runner on the real clock: a stall noticed after its silence limit, the stream back", .timeLimit(.minutes(2))
)
struct VenueStreamRealClockTests {
    @Test("a stream that goes silent is dropped once its silence limit has passed, and made again after its backoff")
    func stallAndBack() async throws {
        let stalling = try WebSocketScript(
            jsonLines: (Sample.healthy + [#"{"fault":"stall"}"#]).joined(separator: "\n"))
        let healthy = try WebSocketScript(
            jsonLines: (Sample.healthy + [Sample.ticker("BTC-KRW", "2.75", 1_700_000_001_000)]).joined(separator: "\n"))
        let server = try WebSocketLoopbackServer(scripts: [stalling, healthy])
        let stream = try VenueStream(
            descriptor: Sample.descriptor(silenceLimit: .seconds(2)), codec: SampleTickerCodec(),
            url: server.url(), markets: [Sample.btc], connector: WebSocketClient(), clock: SystemStreamClock(),
            policy: StreamRetryPolicy(
                initialDelay: .milliseconds(100), maximumDelay: .milliseconds(400), fallbackAfter: .seconds(60)),
            jitterSeed: 42)
        // The silence is counted from the last message, which cannot come before the runner starts.
        let start = WS.now()
        var states: [VenueStreamState] = []
        var quotes: [Quote] = []
        var liveAfter: Double?
        var downAfter: Double?
        for await event in stream.events() {
            switch event {
            case .state(0, let state):
                states.append(state)
                if state == .live, liveAfter == nil { liveAfter = WS.now() - start }
                if case .down = state, downAfter == nil { downAfter = WS.now() - start }
            case .quotes(_, let received, _):
                quotes += received
            default:
                break
            }
            if quotes.count == 3 { break }
        }
        // Seed 42 with a 100 ms first backoff: 50 ms + 13 of 51. (A loaded machine may stall a
        // later connection too; the first outage is what is asserted exactly.)
        #expect(
            Array(states.prefix(4)) == [
                .connecting(attempt: 1, waited: .zero), .live, .down(.stalled(silence: .seconds(2))),
                .connecting(attempt: 2, waited: .milliseconds(63)),
            ])
        #expect(states.last == .resubscribed)
        #expect(quotes.map { "\($0.last)" }.prefix(2) == ["2.5", "2.5"])
        #expect(quotes.last.map { "\($0.last)" } == "2.75")
        #expect(quotes.allSatisfy { $0.receivedAt != nil })
        let elapsed = try #require(downAfter)
        #expect(elapsed >= 2)
        // Counted from when the first quote was seen (the silence began at or before it):
        // generous for a loaded machine, far below any venue's silence limit.
        let live = try #require(liveAfter)
        #expect(elapsed - live < 2 + 5)
        #expect(server.connections.count >= 2)
        #expect(server.connections.last?.messages.first == #"{"sub":["BTC-KRW"]}"#)
    }
}
