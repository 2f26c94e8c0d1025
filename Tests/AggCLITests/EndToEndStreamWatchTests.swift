import AggCore
import AggDataVenues
import AggJSON
import AggTestKit
import AggVenues
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `agg watch --stream` through the built binary, for every venue that declares a stream: a
/// loopback WebSocket server plays `Fixtures/<id>/stream/ticker.jsonl` (and checks the
/// subscription), a loopback fixture server answers REST. The expected quotes are read from the
/// frame script through the venue's own codec, never copied by hand.
// Serialized: each case starts an agg process beside two loopback servers; nine at once starved
// the other wall-clock suites that run beside this one (a debug run's curl concurrency bound).
@Suite("agg watch --stream end to end: every venue, a drop, a stall", .serialized, .timeLimit(.minutes(5)))
struct EndToEndStreamWatchTests {
    /// Every shipped venue that declares a stream (the nine).
    static let venues = EndToEndEveryVenueTests.shipped.descriptors(supporting: .stream).map(\.id)

    /// The first `count` quote changes of `venue`'s ticker script for BTC and ETH (what the
    /// subscription names), as `SYMBOL last timestamp`, read through the venue's codec.
    static func expected(_ venue: String, count: Int) throws -> [String] {
        let registry = EndToEndEveryVenueTests.shipped
        let descriptor = try #require(registry.descriptor(id: venue))
        let adapter = try registry.makeAdapter(
            id: venue,
            environment: AdapterEnvironment(baseURL: "http://127.0.0.1:9", http: ScriptedHTTPClient(body: "")))
        let codec = try #require(adapter.tickerStream)
        let asked = ["BTC", "ETH"].map { Market(base: $0, quote: descriptor.homeCurrency) }
        var last: [Market: Quote] = [:]
        var changes: [String] = []
        for step in try WebSocketScript.fixture(venue: venue, name: "ticker").steps {
            guard case .send(let opcode, let data, _, let repeats) = step else { continue }
            let message: StreamMessage
            switch opcode {
            case .text: message = .text(String(decoding: data, as: UTF8.self))
            case .binary: message = .binary(data)
            default: continue
            }
            for _ in 0..<repeats {
                guard case .quotes(let quotes, _) = codec.read(message, receivedAt: Timestamp(millisecondsSince1970: 0))
                else { continue }
                for quote in quotes where asked.contains(quote.market) {
                    var shown = quote
                    shown.receivedAt = nil
                    if last[quote.market] == shown { continue }
                    last[quote.market] = shown
                    changes.append(text(quote.market.description, quote.last, quote.timestamp))
                }
            }
        }
        return Array(changes.prefix(count))
    }

    static func text(_ symbol: String, _ last: Decimal, _ timestamp: Timestamp?) -> String {
        "\(symbol) \(last) \(timestamp.map { String($0.millisecondsSince1970) } ?? "-")"
    }

    /// One printed quote as `text` gives it.
    static func printed(_ quote: JSONCursor) throws -> String {
        let stamp = try quote["timestamp"].optionalString()
        let milliseconds = try stamp.map { text -> Timestamp in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let date = try #require(formatter.date(from: text))
            return Timestamp(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        return text(
            try quote["symbol"].string(), try #require(Decimal(string: try quote["last"].string())), milliseconds)
    }

    /// The environment that points `venue`'s REST and stream at the loopback servers.
    static func environment(_ venue: String, rest: FixtureServer, stream: WebSocketLoopbackServer) throws
        -> [String: String]
    {
        let descriptor = try #require(EndToEndEveryVenueTests.shipped.descriptor(id: venue))
        var environment = rest.environment
        environment[descriptor.streamURLVariable] = stream.url()
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        environment["AGG_FIXTURES"] = Fixtures.directory.path
        return environment
    }

    @Test("the nine venues are the ones with a stream")
    func nine() {
        #expect(Self.venues.count == 9)
    }

    @Test(
        "agg watch BTC ETH -e <id> --stream --count 3 -f json prints the frames' first three changes, exact",
        arguments: venues)
    func everyVenue(venue: String) async throws {
        let expected = try Self.expected(venue, count: 3)
        #expect(expected.count == 3, "the frame script of \(venue) must change BTC or ETH at least 3 times")
        let stream = try WebSocketLoopbackServer(script: try WebSocketScript.fixture(venue: venue, name: "ticker"))
        let rest = try FixtureServer(venues: [venue])
        defer {
            stream.stop()
            rest.stop()
        }
        let run = try await AggBinary.run(
            ["watch", "BTC", "ETH", "-e", venue, "--stream", "--count", "3", "-f", "json"],
            environment: try Self.environment(venue, rest: rest, stream: stream))
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "")
        let lines = run.output.split(separator: "\n").map(String.init)
        let printed = try lines.flatMap { line in
            try JSONCursor(try JSONParser.parse(line))["quotes"].elements().map(Self.printed)
        }
        #expect(printed == expected)
        #expect(stream.connections.first?.violations == [])
        #expect(rest.requests.isEmpty, "a healthy stream asks REST nothing")
    }

    /// Reads a pipe into a buffer on a thread of its own, as it comes.
    final class PipeReader: Sendable {
        private let buffer = Mutex("")

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    buffer.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
        }

        var text: String { buffer.withLock { $0 } }
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    /// Starts `agg watch BTC ETH -e <venue> --stream -f json` until stopped.
    static func start(_ venue: String, environment: [String: String]) throws -> (Process, PipeReader, PipeReader) {
        let (process, output, error) = try AggBinary.start(
            ["watch", "BTC", "ETH", "-e", venue, "--stream", "-f", "json"], environment: environment)
        return (process, PipeReader(output), PipeReader(error))
    }

    static func stop(_ process: Process) async -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    @Test(
        "the server drops the connection: agg says so once, reconnects, re-subscribes, fills the gap with one REST request, keeps printing"
    )
    func dropMidStream() async throws {
        let venue = "upbit"
        let ticker = try WebSocketScript.fixture(venue: venue, name: "ticker")
        let dropping = WebSocketScript(steps: ticker.steps + [.drop])
        let stream = try WebSocketLoopbackServer(scripts: [dropping, ticker])
        let rest = try FixtureServer(venues: [venue])
        defer {
            stream.stop()
            rest.stop()
        }
        let (process, output, error) = try Self.start(
            venue, environment: try Self.environment(venue, rest: rest, stream: stream))
        let back = await RealTime.poll(within: 60) {
            error.text.contains("upbit: stream back") && stream.connections.count == 2
                && (stream.connections.last?.messages.count ?? 0) >= 1
        }
        #expect(back, "\(error.text)")
        // After the stream is back the second connection's frames are printed again.
        let expected = try Self.expected(venue, count: 3)
        let printedAgain = await RealTime.poll(within: 30) {
            let quotes = output.lines.suffix(1).compactMap { try? JSONCursor(JSONParser.parse($0))["quotes"][0] }
            return (try? quotes.map(Self.printed)) == [expected[2]]
        }
        #expect(printedAgain, "\(output.text)")
        let status = await Self.stop(process)
        #expect(status == 0)
        #expect(
            error.lines == [
                "agg: upbit: stream down (dropped without a close frame); reconnecting", "agg: upbit: stream back",
            ])
        #expect(rest.requests.filter { $0.path.hasPrefix("/upbit/v1/ticker") }.count == 1)
        #expect(stream.connections.map(\.violations) == [[], []])
        // Both connections subscribed the same way.
        let subscriptions = stream.connections.map { $0.messages.first ?? "" }
        #expect(subscriptions.count == 2 && subscriptions.first == subscriptions.last)
    }

    @Test("a stalled stream (the server goes silent) is noticed within the venue's silence limit")
    func stall() async throws {
        let venue = "kraken"
        let descriptor = try #require(EndToEndEveryVenueTests.shipped.descriptor(id: venue)?.stream)
        let ticker = try WebSocketScript.fixture(venue: venue, name: "ticker")
        let stream = try WebSocketLoopbackServer(scripts: [WebSocketScript(steps: ticker.steps + [.stall]), ticker])
        let rest = try FixtureServer(venues: [venue])
        defer {
            stream.stop()
            rest.stop()
        }
        let clock = ContinuousClock()
        let (process, output, error) = try Self.start(
            venue, environment: try Self.environment(venue, rest: rest, stream: stream))
        #expect(await RealTime.poll(within: 30) { output.lines.count >= 3 })
        let lastFrame = clock.now
        let limit = descriptor.silenceLimit
        let noticed = await RealTime.poll(within: Double(limit.components.seconds) + 30) {
            error.text.contains("kraken: stream down")
        }
        let elapsed = clock.now - lastFrame
        _ = await Self.stop(process)
        #expect(noticed)
        #expect(
            error.lines.first
                == "agg: kraken: stream down (stalled: nothing received for \(limit.components.seconds) s); reconnecting"
        )
        // Noticed at the limit, not before it, and not long after (the slack is for a loaded machine).
        #expect(elapsed <= limit + .seconds(10))
    }
}
