import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggServices

/// `agg watch --stream` in process, on a scripted connector and a clock moved by hand.
@Suite("agg watch --stream", .timeLimit(.minutes(3)))
struct WatchStreamTests {
    static let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)

    /// Runs `arguments` while `feed` plays the venue's side; the run and the connector.
    static func watch(
        _ arguments: [String], terminal: Bool = false, clock: ManualStreamClock = ManualStreamClock(),
        rest: StreamTestREST = StreamTestREST(["BTC": "100", "ETH": "10"]),
        feed: @escaping @Sendable (ScriptedStreamConnector, ManualStreamClock) async -> Void
    ) async -> CLIRun {
        let connector = ScriptedStreamConnector()
        let feeder = Task { await feed(connector, clock) }
        let run = await runCLI(
            arguments, http: rest.client, terminal: terminal, registry: streamRegistry(), now: now,
            streams: connector, streamClock: clock)
        feeder.cancel()
        return run
    }

    @Test("off a terminal each change is one JSON line of the quotes that changed; --count 3 ends after three")
    func jsonLines() async throws {
        let run = await Self.watch(["watch", "BTC", "ETH", "-e", "streamy", "--stream", "--count", "3", "-f", "json"]) {
            connector, _ in
            guard let connection = await connector.connection(1) else { return }
            connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
            connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
            connection.deliver(StreamTestCodec.ticker("ETH", "0.25", 1_700_000_000_700))
            connection.deliver(StreamTestCodec.ticker("BTC", "2.75", 1_700_000_001_000))
            connection.deliver(StreamTestCodec.ticker("BTC", "2.8", 1_700_000_002_000))
        }
        #expect(run.status == 0)
        #expect(run.error == "")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let quotes = try lines.map { line -> [String] in
            let block = JSONCursor(try JSONParser.parse(line))
            #expect(try block.members().map(\.key) == ["time", "quotes", "errors"])
            #expect(try block["time"].string() == "2023-11-14T22:13:20.000Z")
            return try block["quotes"].elements().map {
                "\(try $0["symbol"].string()) \(try $0["last"].string()) \(try $0["timestamp"].string())"
            }
        }
        #expect(
            quotes == [
                ["BTC/KRW 2.5 2023-11-14T22:13:20.500Z"], ["ETH/KRW 0.25 2023-11-14T22:13:20.700Z"],
                ["BTC/KRW 2.75 2023-11-14T22:13:21.000Z"],
            ])
    }

    @Test("on a terminal the table is redrawn at most 4 times a second: a change within 250 ms waits for the slot")
    func terminalPacing() async throws {
        let run = await Self.watch(
            ["watch", "BTC", "ETH", "-e", "streamy", "--stream", "--count", "2"], terminal: true
        ) { connector, clock in
            guard let connection = await connector.connection(1) else { return }
            connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
            connection.deliver(
                "[" + StreamTestCodec.ticker("ETH", "0.25") + "," + StreamTestCodec.ticker("BTC", "2.75") + "]")
            // The second change is drawn at 250 ms on the stream clock, not before.
            if await clock.waitForSleeper(at: .milliseconds(250), within: 60) { clock.advance(to: .milliseconds(250)) }
        }
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("\u{1B}[?25l\u{1B}[2mstreaming · "))
        let frames = run.output.components(separatedBy: "\r\u{1B}[J")
        #expect(frames.count == 2)
        #expect(frames.first?.contains("2.5") == true && frames.first?.contains("0.25") == false)
        #expect(frames.last?.contains("2.75") == true && frames.last?.contains("0.25") == true)
    }

    @Test("a venue asked for that has no stream polls every interval and says so once on stderr")
    func noStream() async throws {
        let run = await Self.watch(
            ["watch", "BTC/USD", "-e", "testbare", "--stream", "--count", "1", "-i", "3", "-f", "json"]
        ) { _, _ in }
        #expect(run.status == 0)
        #expect(run.errorLines == ["agg: testbare: no stream; polling over REST every 3 s"])
        #expect(run.output.split(separator: "\n").count == 1)
        #expect(run.output.contains(#""last":"1""#) || run.output.contains(#""last":1"#))
    }

    @Test("a stream that goes down says so once on stderr, and its quote is shown stale, never fresh (exit 1)")
    func downShowsStale() async throws {
        let run = await Self.watch(["watch", "BTC", "-e", "streamy", "--stream", "--count", "2", "-f", "json"]) {
            connector, _ in
            guard let connection = await connector.connection(1) else { return }
            connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
            connection.fail(.dropped)
        }
        #expect(run.status == 1)
        #expect(run.errorLines == ["agg: streamy: stream down (dropped without a close frame); reconnecting"])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let second = JSONCursor(try JSONParser.parse(lines.count == 2 ? lines[1] : "{}"))
        #expect(try second["quotes"][0]["last"].string() == "2.5")
        #expect(try second["quotes"][0]["stale"].bool() == true)
        #expect(try second["errors"][0]["message"].string().contains("stream down: dropped without a close frame"))
    }

    @Test("--alert rules see every streamed change: the crossing fires once, on the change that crosses")
    func alert() async throws {
        let run = await Self.watch(
            [
                "watch", "BTC", "ETH", "-e", "streamy", "--stream", "--count", "3", "-f", "json", "--alert",
                "BTC last > 2.6",
            ]
        ) { connector, _ in
            guard let connection = await connector.connection(1) else { return }
            connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
            connection.deliver(StreamTestCodec.ticker("ETH", "0.25"))
            connection.deliver(StreamTestCodec.ticker("BTC", "2.75"))
        }
        #expect(run.status == 0, "\(run.error)")
        #expect(run.errorLines == ["agg: alert: streamy BTC last 2.75 (rule BTC last > 2.6)"])
    }

    @Test("--stream with a withdraw/deposit alert rule is a usage error (64)")
    func transferRule() async throws {
        let run = await runCLI(["watch", "BTC", "-e", "bithumb", "--stream", "--alert", "BTC withdraw closed"])
        #expect(run.status == 64)
        #expect(
            run.errorLines == [
                "agg: --stream does not follow transfer status: withdraw/deposit alert rules need polling (drop --stream)"
            ])
    }

    @Test("--stream with --offline is a usage error (64)")
    func offline() async throws {
        let run = await runCLI(["watch", "BTC", "-e", "bithumb", "--stream", "--offline"])
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: --stream follows live streams: it cannot be used with --offline"])
    }
}
