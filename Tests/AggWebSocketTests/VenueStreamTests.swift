import AggCore
import AggTestKit
import Testing

@testable import AggTransport

/// The stream runner (`VenueStream`) against the loopback WebSocket server, through the real
/// client, on a clock the tests move by hand: every quota, keep-alive, backoff and fallback time
/// is asserted exactly. Real time bounds only how long a socket may take to deliver.
@Suite("Stream runner: quotas, keep-alive, faults, backoff, fallback", .timeLimit(.minutes(5)))
struct VenueStreamTests {
    private static func script(_ lines: [String]) throws -> WebSocketScript {
        try WebSocketScript(jsonLines: lines.joined(separator: "\n"))
    }

    @Test(
        "markets are spread over connections and subscriptions cut per message, paced per second; the first goes at once"
    )
    func subscriptionSplitAndPaced() async throws {
        let markets = ["BTC", "ETH", "XRP", "SOL", "ADA"].map { Market(base: $0, quote: "KRW") }
        let quotas = StreamQuotas(
            marketsPerConnection: 3, marketsPerMessage: 2, messagesPerSecond: 1, connectionsPerWindow: 10,
            connectionWindow: .seconds(60), subscribeWithin: .seconds(5))
        let harness = try StreamHarness(
            scripts: [try Self.script([#"{"expect":"text"}"#])], markets: markets,
            descriptor: Sample.descriptor(quotas: quotas))
        #expect(harness.stream.plan.map { $0.map(\.base) } == [["BTC", "ETH", "XRP"], ["SOL", "ADA"]])
        // At time 0 each connection sends its first message, and the first connection waits a
        // second for its second: one message a second.
        #expect(await harness.server.wait(within: 20) { $0.map(\.messages.count).reduce(0, +) == 2 })
        #expect(await harness.clock.waitForSleeper(at: .seconds(1)))
        #expect(
            Set(harness.server.connections.map(\.messages)) == [
                [#"{"sub":["BTC-KRW","ETH-KRW"]}"#], [#"{"sub":["SOL-KRW","ADA-KRW"]}"#],
            ])
        harness.clock.advance(to: .seconds(1))
        #expect(await harness.server.wait(within: 20) { $0.map(\.messages.count).reduce(0, +) == 3 })
        #expect(
            Set(harness.server.connections.map(\.messages))
                == [[#"{"sub":["BTC-KRW","ETH-KRW"]}"#, #"{"sub":["XRP-KRW"]}"#], [#"{"sub":["SOL-KRW","ADA-KRW"]}"#]])
        // Events reach the log on their own task: wait for them rather than read at once.
        #expect(await harness.wait { _ in !harness.states(0).isEmpty && !harness.states(1).isEmpty })
        #expect(harness.states(0) == [.connecting(attempt: 1, waited: .zero)])
        #expect(harness.states(1) == [.connecting(attempt: 1, waited: .zero)])
        await harness.stop()
        #expect(harness.server.connections.allSatisfy { $0.violations.isEmpty })
    }

    @Test("connection attempts keep to the venue's window: the third of two a window waits for the window")
    func connectionQuota() async throws {
        let quotas = StreamQuotas(
            marketsPerConnection: 1, marketsPerMessage: 1, messagesPerSecond: 5, connectionsPerWindow: 2,
            connectionWindow: .seconds(10))
        let harness = try StreamHarness(
            scripts: [try Self.script([#"{"expect":"text"}"#])],
            markets: [Sample.btc, Sample.eth, Market(base: "XRP", quote: "KRW")],
            descriptor: Sample.descriptor(quotas: quotas))
        #expect(await harness.server.wait(within: 20) { $0.count == 2 })
        #expect(await harness.clock.advanceToSleeper(at: .seconds(10)))
        #expect(await harness.server.wait(within: 20) { $0.count == 3 })
        #expect(await harness.wait { _ in (0..<3).allSatisfy { !harness.states($0).isEmpty } })
        let firsts = (0..<3).map { harness.states($0).first }
        #expect(firsts.filter { $0 == .connecting(attempt: 1, waited: .zero) }.count == 2)
        #expect(firsts.filter { $0 == .connecting(attempt: 1, waited: .seconds(10)) }.count == 1)
        await harness.stop()
    }

    @Test("live once the venue speaks after the subscription; quotes carry the venue's time and receivedAt")
    func liveAndQuotes() async throws {
        let harness = try StreamHarness(
            scripts: [
                try Self.script(
                    Sample.healthy + [Sample.ticker("BTC-KRW", "2.75", 1_700_000_001_000)])
            ])
        #expect(await harness.wait { _ in harness.quotes.count == 2 })
        #expect(harness.states() == [.connecting(attempt: 1, waited: .zero), .live])
        #expect(
            harness.quotes == [
                Sample.quote(Sample.btc, "2.5", 1_700_000_000_500), Sample.quote(Sample.btc, "2.75", 1_700_000_001_000),
            ])
        await harness.stop()
    }

    @Test("an application keep-alive goes out every interval, and a venue's ping is answered at once")
    func keepAliveAndReply() async throws {
        let harness = try StreamHarness(
            scripts: [
                try Self.script([
                    Sample.subscribe("BTC-KRW"), #"{"send":"text","data":"{\"ping\":7}"}"#,
                    #"{"expect":"text","data":"{\"pong\":7}"}"#, #"{"expect":"text","data":"PING"}"#,
                    #"{"expect":"text","data":"PING"}"#,
                ])
            ],
            descriptor: Sample.descriptor(
                keepAlive: .message(.text("PING"), every: .seconds(10)), silenceLimit: .seconds(60)))
        #expect(await harness.server.wait(within: 20) { $0.first?.messages.count == 2 })
        #expect(harness.server.connections.first?.messages == [#"{"sub":["BTC-KRW"]}"#, #"{"pong":7}"#])
        #expect(await harness.clock.advanceToSleeper(at: .seconds(10)))
        #expect(await harness.server.wait(within: 20) { $0.first?.messages.count == 3 })
        #expect(await harness.clock.advanceToSleeper(at: .seconds(20)))
        #expect(await harness.server.wait(within: 20) { $0.first?.messages.count == 4 })
        #expect(harness.server.connections.first?.messages.suffix(2) == ["PING", "PING"])
        #expect(harness.server.connections.first?.violations == [])
        #expect(await harness.waitForStates(2))
        #expect(harness.states() == [.connecting(attempt: 1, waited: .zero), .live])
        await harness.stop()
    }

    @Test("a venue that pings on connect gets its answer after the first subscribe message, within the pace")
    func greetingPingWaitsForTheSubscription() async throws {
        let quotas = StreamQuotas(
            marketsPerConnection: 10, marketsPerMessage: 10, messagesPerSecond: 1, connectionsPerWindow: 10,
            connectionWindow: .seconds(60), subscribeWithin: .seconds(5))
        let harness = try StreamHarness(
            scripts: [
                try Self.script([
                    #"{"send":"text","data":"{\"ping\":1}"}"#, Sample.subscribe("BTC-KRW"),
                    #"{"expect":"text","data":"{\"pong\":1}"}"#,
                ])
            ], descriptor: Sample.descriptor(quotas: quotas))
        #expect(await harness.server.wait(within: 20) { $0.first?.messages.count == 1 })
        #expect(await harness.clock.advanceToSleeper(at: .seconds(1)))
        #expect(await harness.server.wait(within: 20) { $0.first?.messages.count == 2 })
        #expect(harness.server.connections.first?.messages == [#"{"sub":["BTC-KRW"]}"#, #"{"pong":1}"#])
        #expect(harness.server.connections.first?.violations == [])
        await harness.stop()
    }

    @Test("a ping-frame keep-alive sends WebSocket pings on time")
    func pingFrameKeepAlive() async throws {
        let harness = try StreamHarness(
            scripts: [try Self.script([Sample.subscribe("BTC-KRW"), #"{"expect":"ping"}"#, #"{"expect":"ping"}"#])],
            descriptor: Sample.descriptor(keepAlive: .pingFrame(every: .seconds(15)), silenceLimit: .seconds(60)))
        #expect(await harness.server.wait(within: 20) { $0.first?.messages.count == 1 })
        #expect(await harness.clock.advanceToSleeper(at: .seconds(15)))
        #expect(await harness.server.wait(within: 20) { $0.first?.frames.filter { $0.opcode == 0x9 }.count == 1 })
        #expect(await harness.clock.advanceToSleeper(at: .seconds(30)))
        #expect(await harness.server.wait(within: 20) { $0.first?.frames.filter { $0.opcode == 0x9 }.count == 2 })
        #expect(harness.server.connections.first?.violations == [])
        await harness.stop()
    }

    /// A fault on the first connection, and what the runner must report.
    struct FaultCase: Sendable, CustomTestStringConvertible {
        var name: String
        var lines: [String]
        var reason: StreamFault
        /// Whether the connection was live before the fault (then it comes back as resubscribed).
        var wasLive: Bool

        var testDescription: String { name }
    }

    static let faults: [FaultCase] = [
        FaultCase(
            name: "drop", lines: Sample.healthy + [#"{"fault":"drop"}"#], reason: .dropped, wasLive: true),
        FaultCase(
            name: "close 4290", lines: Sample.healthy + [#"{"fault":"close","code":4290,"reason":"too many"}"#],
            reason: .closed(code: 4290, reason: "too many"), wasLive: true),
        FaultCase(
            name: "close 1000", lines: Sample.healthy + [#"{"fault":"close","code":1000}"#],
            reason: .closed(code: 1000, reason: ""), wasLive: true),
        FaultCase(
            name: "close without code", lines: Sample.healthy + [#"{"fault":"close"}"#],
            reason: .closed(code: nil, reason: ""), wasLive: true),
        FaultCase(
            name: "malformed frame", lines: Sample.healthy + [#"{"fault":"malformed"}"#],
            reason: .protocolViolation(closeCode: 1002), wasLive: true),
        FaultCase(
            name: "oversize message", lines: Sample.healthy + [#"{"fault":"oversize"}"#],
            reason: .messageTooLarge(limit: 16 * 1024 * 1024), wasLive: true),
        FaultCase(
            name: "the venue's error, then its close",
            lines: [
                Sample.subscribe("BTC-KRW"),
                #"{"fault":"error","data":"{\"error\":{\"code\":\"NO_CODES\",\"message\":\"no codes\"}}"}"#,
            ], reason: .refused(code: "NO_CODES", message: "no codes"), wasLive: false),
        FaultCase(
            name: "handshake 429", lines: [#"{"fault":"handshake","status":429}"#],
            reason: .handshakeRefused(status: 429), wasLive: false),
        FaultCase(
            name: "handshake 403", lines: [#"{"fault":"handshake","status":403}"#],
            reason: .handshakeRefused(status: 403), wasLive: false),
    ]

    @Test(
        "every fault is reported once with its reason; the runner backs off, reconnects and re-subscribes",
        arguments: faults)
    func faultThenReconnect(_ fault: FaultCase) async throws {
        let harness = try StreamHarness(scripts: [try Self.script(fault.lines), try Self.script(Sample.healthy)])
        let before: [VenueStreamState] = [.connecting(attempt: 1, waited: .zero)] + (fault.wasLive ? [.live] : [])
        #expect(await harness.waitForStates(before.count + 1))
        #expect(harness.states() == before + [.down(fault.reason)])
        // Seed 42's first jitter: 500 ms + 73 of 501 (SplitMix64, checked by hand).
        #expect(await harness.clock.advanceToSleeper(at: .milliseconds(573)))
        #expect(await harness.waitForStates(before.count + 3))
        #expect(
            harness.states() == before + [
                .down(fault.reason), .connecting(attempt: 2, waited: .milliseconds(573)),
                fault.wasLive ? .resubscribed : .live,
            ])
        #expect(await harness.server.wait(within: 20) { $0.count == 2 && $0[1].messages == [#"{"sub":["BTC-KRW"]}"#] })
        #expect(harness.server.connections.allSatisfy { $0.violations.isEmpty })
        await harness.stop()
    }

    @Test("a wrong Sec-WebSocket-Accept is a down handshake, named")
    func badAccept() async throws {
        let harness = try StreamHarness(scripts: [try Self.script([#"{"fault":"badAccept"}"#])])
        #expect(await harness.waitForStates(2))
        guard case .down(.handshakeInvalid(let detail)) = harness.states().last else {
            Issue.record("expected a handshakeInvalid down, got \(harness.states())")
            return
        }
        #expect(detail.hasPrefix("Sec-WebSocket-Accept is "))
        await harness.stop()
    }

    @Test("silence past the limit is a stall: the connection is dropped and made again")
    func stall() async throws {
        let harness = try StreamHarness(
            scripts: [try Self.script(Sample.healthy + [#"{"fault":"stall"}"#]), try Self.script(Sample.healthy)],
            descriptor: Sample.descriptor(silenceLimit: .seconds(30)))
        #expect(await harness.waitForStates(2))
        #expect(await harness.clock.advanceToSleeper(at: .seconds(30)))
        #expect(await harness.waitForStates(3))
        #expect(harness.states().last == .down(.stalled(silence: .seconds(30))))
        #expect(await harness.clock.advanceToSleeper(at: .milliseconds(30_573)))
        #expect(await harness.waitForStates(5))
        #expect(
            harness.states() == [
                .connecting(attempt: 1, waited: .zero), .live, .down(.stalled(silence: .seconds(30))),
                .connecting(attempt: 2, waited: .milliseconds(573)), .resubscribed,
            ])
        #expect(await harness.wait { _ in harness.quotes.count == 2 })
        #expect(harness.quotes.last == Sample.quote(Sample.btc, "2.5", 1_700_000_000_500, receivedAt: 30_573))
        await harness.stop()
    }

    @Test(
        "failures in a row back off exponentially with seeded jitter up to 30 s, report down once, poll after 60 s and come back"
    )
    func backoffFallbackAndBack() async throws {
        let refused = try Self.script([#"{"fault":"handshake","status":503}"#])
        let harness = try StreamHarness(
            scripts: Array(repeating: refused, count: 7) + [try Self.script(Sample.healthy)])
        // Seed 42 (SplitMix64): half the nominal delay (1, 2, 4, 8, 16, 30, 30 s) plus a random
        // part of up to the other half.
        let delays: [Int64] = [573, 1313, 2168, 4542, 15279, 23040, 24816]
        #expect(await harness.waitForStates(2))
        var time: Int64 = 0
        for (index, delay) in delays.prefix(6).enumerated() {
            time += delay
            #expect(await harness.clock.advanceToSleeper(at: .milliseconds(time)))
            #expect(await harness.waitForStates(index + 3))
            #expect(harness.states().last == .connecting(attempt: index + 2, waited: .milliseconds(delay)))
        }
        // Attempt 7 fails at 46.915 s (its backoff is set); at 60 s without a stream the
        // markets are polled.
        #expect(await harness.clock.waitForSleeper(at: .milliseconds(time + delays[6])))
        #expect(await harness.clock.advanceToSleeper(at: .seconds(60)))
        #expect(await harness.waitForStates(9))
        #expect(harness.states().last == .polling)
        #expect(await harness.clock.advanceToSleeper(at: .milliseconds(time + delays[6])))
        #expect(await harness.waitForStates(11))
        #expect(
            harness.states()
                == [.connecting(attempt: 1, waited: .zero), .down(.handshakeRefused(status: 503))]
                + delays.prefix(6).enumerated().map {
                    .connecting(attempt: $0.offset + 2, waited: .milliseconds($0.element))
                }
                + [.polling, .connecting(attempt: 8, waited: .milliseconds(24816)), .live])
        await harness.stop()
    }

    @Test("a stream that was live falls back to polling 60 s into its outage, once, then resubscribes")
    func fallbackAfterLive() async throws {
        let dropped = try Self.script(Sample.healthy + [#"{"fault":"drop"}"#])
        let refused = try Self.script([#"{"fault":"handshake","status":429}"#])
        let harness = try StreamHarness(
            scripts: [dropped] + Array(repeating: refused, count: 6) + [try Self.script(Sample.healthy)])
        #expect(await harness.waitForStates(3))
        var time: Int64 = 0
        for delay: Int64 in [573, 1313, 2168, 4542, 15279, 23040] {
            time += delay
            #expect(await harness.clock.advanceToSleeper(at: .milliseconds(time)))
        }
        // Attempt 7 fails at 46.915 s; the outage began at 0 s, so the markets are polled at 60 s.
        #expect(await harness.clock.waitForSleeper(at: .milliseconds(time + 24816)))
        #expect(await harness.clock.advanceToSleeper(at: .seconds(60)))
        #expect(await harness.wait { _ in harness.states().last == .polling })
        #expect(await harness.clock.advanceToSleeper(at: .milliseconds(time + 24816)))
        #expect(await harness.wait { _ in harness.states().last == .resubscribed })
        let states = harness.states()
        #expect(states.filter { if case .down = $0 { true } else { false } } == [.down(.dropped)])
        #expect(states.filter { $0 == .polling }.count == 1)
        #expect(states.suffix(3) == [.polling, .connecting(attempt: 8, waited: .milliseconds(24816)), .resubscribed])
        await harness.stop()
    }

    @Test("a malformed message is counted and costs only itself: the stream stays up")
    func malformedMessages() async throws {
        let harness = try StreamHarness(
            scripts: [
                try Self.script(
                    Sample.healthy + [
                        #"{"send":"text","data":"not json"}"#,
                        #"{"send":"text","data":"{\"m\":\"BTC-KRW\",\"t\":1}"}"#,
                        Sample.ticker("BTC-KRW", "3", 1_700_000_002_000),
                    ])
            ])
        #expect(await harness.wait { _ in harness.quotes.count == 2 })
        let malformed = harness.events.filter { if case .malformed = $0 { true } else { false } }
        #expect(
            malformed == [
                .malformed(connection: 0, reason: "not a JSON object", total: 1),
                .malformed(connection: 0, reason: "$.p is not a price", total: 2),
            ])
        #expect(harness.quotes.last == Sample.quote(Sample.btc, "3", 1_700_000_002_000))
        #expect(harness.states() == [.connecting(attempt: 1, waited: .zero), .live])
        await harness.stop()
    }

    @Test("cancelling ends the runner, closes every connection and leaves no task behind")
    func cancellation() async throws {
        let harness = try StreamHarness(
            scripts: [try Self.script([#"{"expect":"text"}"#, Sample.ticker("BTC-KRW", "2.5", 1_700_000_000_500)])],
            markets: [Sample.btc, Sample.eth],
            descriptor: Sample.descriptor(
                keepAlive: .pingFrame(every: .seconds(10)),
                quotas: StreamQuotas(
                    marketsPerConnection: 1, marketsPerMessage: 1, messagesPerSecond: 5, connectionsPerWindow: 10,
                    connectionWindow: .seconds(60))))
        #expect(await harness.server.wait(within: 20) { $0.count == 2 })
        #expect(await harness.wait { _ in harness.states(0).count == 2 && harness.states(1).count == 2 })
        #expect(harness.states(0) == [.connecting(attempt: 1, waited: .zero), .live])
        await harness.stop()
        // Both connections closed by the client with 1000, and the engine holds none.
        #expect(
            await harness.server.wait(within: 20) { records in
                records.count == 2
                    && records.allSatisfy { record in
                        record.frames.contains { $0.opcode == 0x8 && WS.closeCode($0) == 1000 }
                    }
            })
        #expect(await RealTime.poll(within: 20) { harness.client.engineProbe.connectionCount == 0 })
        #expect(harness.clock.deadlines == [])
    }

    @Test("the reasons read as one line each")
    func faultDescriptions() {
        #expect(
            StreamFault.stalled(silence: .milliseconds(2500)).description
                == "stream stalled: nothing received for 2.5 s")
        #expect(
            StreamFault.closed(code: 4290, reason: "too many").description == "stream closed with code 4290 (too many)")
        #expect(StreamFault.handshakeRefused(status: 429).description == "stream refused with HTTP 429")
        #expect(
            StreamFault.refused(code: "NO_CODES", message: "no codes").description == "stream error NO_CODES: no codes")
    }

    @Test("the client's errors read as the runner's faults, case for case")
    func clientErrorsAsFaults() {
        let url = "ws://127.0.0.1:1/"
        let pairs: [(WebSocketError, StreamFault)] = [
            (.invalidURL(url), .unreachable("invalid WebSocket URL \(url)")),
            (.connection(url: url, detail: "refused"), .unreachable("WebSocket connection to \(url) failed: refused")),
            (
                .timeout(url: url, stage: "handshake", seconds: 10),
                .unreachable("WebSocket handshake to \(url) took longer than 10.0 s")
            ),
            (.handshakeRefused(url: url, status: 429), .handshakeRefused(status: 429)),
            (.handshakeInvalid(url: url, detail: "no Upgrade"), .handshakeInvalid("no Upgrade")),
            (.closedByPeer(url: url, code: 4290, reason: "slow"), .closed(code: 4290, reason: "slow")),
            (.closedByPeer(url: url, code: nil, reason: ""), .closed(code: nil, reason: "")),
            (.dropped(url: url), .dropped),
            (.messageTooLarge(url: url, limit: 16), .messageTooLarge(limit: 16)),
            (.protocolViolation(url: url, closeCode: 1002), .protocolViolation(closeCode: 1002)),
            (.stalled(url: url, seconds: 30), .stalled(silence: .seconds(30))),
            (.shutDown(url: url), .unreachable("the WebSocket client was shut down (\(url))")),
        ]
        for (error, fault) in pairs {
            #expect(StreamFault(error) == fault, "\(error)")
        }
    }

    @Test("a descriptor without a stream is refused")
    func noStream() {
        var descriptor = Sample.descriptor()
        descriptor.stream = nil
        #expect(throws: AggError.unsupported(venue: "sample", capability: .stream)) {
            _ = try VenueStream(
                descriptor: descriptor, codec: SampleTickerCodec(), url: "ws://127.0.0.1/", markets: [Sample.btc],
                connector: WebSocketClient())
        }
    }
}
