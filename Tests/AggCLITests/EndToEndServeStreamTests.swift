import AggCore
import AggJSON
import AggTestKit
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `agg serve` on streams through the built binary: a loopback WebSocket server plays upbit's
/// ticker script, a fixture server answers the first poll (every venue's all-tickers request) and
/// the FX source. The board pushed on `/v1/stream` follows the frames; a dropped stream makes the
/// venue stale (in `/v1/quote` and `/metrics`) until it is back.
@Suite("agg serve streams end to end", .serialized, .timeLimit(.minutes(3)))
struct EndToEndServeStreamTests {
    /// Reads a socket into a buffer on a thread of its own, as it comes.
    final class SocketReader: Sendable {
        private let buffer = Mutex<[UInt8]>([])

        init(_ descriptor: Int32, received: [UInt8]) {
            buffer.withLock { $0 = received }
            Thread.detachNewThread { [self] in
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = recv(descriptor, &chunk, chunk.count, 0)
                    if count <= 0 { return }
                    buffer.withLock { $0 += chunk[0..<count] }
                }
            }
        }

        var text: String { buffer.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    /// `script` with its subscription check taking any text message (serve subscribes every
    /// market its first poll saw).
    static func anySubscription(_ script: WebSocketScript) -> WebSocketScript {
        WebSocketScript(
            provenance: script.provenance,
            steps: script.steps.map { step in
                guard case .expect(.text, _, let match) = step else { return step }
                return .expect(.text, data: nil, match: match)
            })
    }

    /// Starts `agg serve` on upbit (streamed from `stream`) and binance (whose stream sends
    /// nothing, so that its first poll's tickers stand) with exchangerate; the port.
    static func start(_ stream: WebSocketLoopbackServer, silent: WebSocketLoopbackServer, rest: FixtureServer)
        async throws -> (Process, Int, EndToEndStreamWatchTests.PipeReader)
    {
        let environment = try rest.privateEnvironment([
            "AGG_UPBIT_WS_URL": stream.url(), "AGG_BINANCE_WS_URL": silent.url(),
        ])
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--listen", "127.0.0.1:0", "--exchange", "upbit,binance", "--fx", "exchangerate",
                "--interval", "5",
            ], environment: environment)
        let stderr = EndToEndStreamWatchTests.PipeReader(error)
        #expect(await RealTime.poll(within: 30) { stderr.text.contains("polling") })
        let line = stderr.lines.first ?? ""
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        return (process, port, stderr)
    }

    static let silentScript = WebSocketScript(steps: [])

    /// The fixture server with exchangerate's table dated beside the frames, and upbit's ticker
    /// request for several markets (the gap fill after a reconnect) answered from its
    /// all-tickers recording.
    static func rest() throws -> FixtureServer {
        let table = try EndToEndPremiumStreamTests.recentRates()
        let tickers = try String(
            contentsOf: Fixtures.directory.appendingPathComponent("upbit/ticker_all_KRW.json"), encoding: .utf8)
        return try FixtureServer(venues: ["upbit", "binance", "exchangerate"]) { venue, request in
            if venue == "exchangerate" { return LoopbackReply.json(table) }
            if venue == "upbit", request.path == "/v1/ticker" { return LoopbackReply.json(tickers) }
            return nil
        }
    }

    @Test("the board pushed on /v1/stream follows upbit's frames; REST is asked once for upbit")
    func sseFollowsFrames() async throws {
        let ticker = try WebSocketScript.fixture(venue: "upbit", name: "ticker")
        let stream = try WebSocketLoopbackServer(script: Self.anySubscription(ticker))
        let silent = try WebSocketLoopbackServer(script: Self.silentScript)
        let rest = try Self.rest()
        defer {
            stream.stop()
            silent.stop()
            rest.stop()
        }
        // The last price of upbit's BTC and ETH in the script, through upbit's codec.
        let prices = try EndToEndPremiumStreamTests.finalPrices("upbit")
        let btc = try #require(prices[Market(base: "BTC", quote: "KRW")])
        let (process, port, stderr) = try await Self.start(stream, silent: silent, rest: rest)
        let opened = try await RawHTTPClient.openStream(port: port, "/v1/stream")
        defer { close(opened.descriptor) }
        let events = SocketReader(opened.descriptor, received: opened.received)
        // The frames come at once after the subscription; the board follows them within the
        // pacing interval (0.25 s) of the last, far inside this bound.
        let followed = await RealTime.poll(within: 30) {
            events.text.contains(#""exchange":"upbit","symbol":"BTC/KRW","last":"\#(btc)""#)
        }
        #expect(followed, "\(events.text.suffix(2000))")
        let quote = try await RawHTTPClient.get(port: port, "/v1/quote?symbol=BTC&exchange=upbit")
        #expect(quote.text.contains(#""last":"\#(btc)""#), "\(quote.text)")
        let metrics = try await RawHTTPClient.get(port: port, "/metrics")
        #expect(metrics.text.contains(#"agg_venue_stream_state{exchange="upbit",state="live"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"agg_venue_stream_reconnects_total{exchange="upbit"} 0"#))
        let status = await EndToEndStreamWatchTests.stop(process)
        #expect(status == 0, "\(stderr.text)")
        // The first poll asked upbit's tickers; the stream took over from there.
        #expect(rest.requests.filter { $0.path.hasPrefix("/upbit/v1/ticker") }.map(\.path) == ["/upbit/v1/ticker/all"])
        #expect(stream.connections.map(\.violations) == [[]])
    }

    @Test("a burst of 100 upbit BTC frames is coalesced on /v1/stream: at most 4 boards a second, the last price last")
    func burstIsCoalesced() async throws {
        let stream = try WebSocketLoopbackServer(script: try EndToEndPremiumStreamTests.burst())
        let silent = try WebSocketLoopbackServer(script: Self.silentScript)
        let rest = try Self.rest()
        defer {
            stream.stop()
            silent.stop()
            rest.stop()
        }
        let (process, port, stderr) = try await Self.start(stream, silent: silent, rest: rest)
        let opened = try await RawHTTPClient.openStream(port: port, "/v1/stream")
        defer { close(opened.descriptor) }
        let started = Date()
        let events = SocketReader(opened.descriptor, received: opened.received)
        /// Upbit's BTC price in each board event that shows one of the burst's.
        func prices() -> [String] {
            let marker = #""exchange":"upbit","symbol":"BTC/KRW","last":""#
            return events.text.components(separatedBy: "event: board").compactMap { event in
                guard let range = event.range(of: marker) else { return nil }
                let price = String(event[range.upperBound...].prefix { $0 != "\"" })
                return price.hasPrefix("1320870") ? price : nil
            }
        }
        let last = await RealTime.poll(within: 30) { prices().last == "132087099" }
        let elapsed = Date().timeIntervalSince(started)
        let status = await EndToEndStreamWatchTests.stop(process)
        #expect(last, "\(prices())")
        #expect(status == 0, "\(stderr.text)")
        let shown = prices()
        // At most 4 pushes a second from the frames, plus a board a poll (every 5 s) and one more
        // for a slot begun at the end: far fewer than the 100 frames.
        #expect(
            shown.count <= 2 + Int((elapsed * 4).rounded(.up)) + Int((elapsed / 5).rounded(.up)),
            "\(shown.count) boards in \(elapsed) s")
        #expect(shown.count < 100, "\(shown)")
        let followed = shown.compactMap { Int($0) }
        #expect(followed == followed.sorted(), "\(shown)")
    }

    @Test("the stream drops: serve keeps answering, upbit's quotes go stale, then recover on the reconnect")
    func dropGoesStaleThenRecovers() async throws {
        let ticker = Self.anySubscription(try WebSocketScript.fixture(venue: "upbit", name: "ticker"))
        // The first connection drops after its frames; the first reconnect is refused, so that
        // the outage lasts two backoffs (at least 0.5 s and 1 s); the next one streams again.
        let stream = try WebSocketLoopbackServer(scripts: [
            WebSocketScript(steps: ticker.steps + [.drop]),
            WebSocketScript(steps: [.refuseHandshake(status: 503, body: "busy")]),
            ticker,
        ])
        let silent = try WebSocketLoopbackServer(script: Self.silentScript)
        let rest = try Self.rest()
        defer {
            stream.stop()
            silent.stop()
            rest.stop()
        }
        let (process, port, stderr) = try await Self.start(stream, silent: silent, rest: rest)
        func quote() async -> String {
            (try? await RawHTTPClient.get(port: port, "/v1/quote?symbol=BTC&exchange=upbit").text) ?? ""
        }
        /// Asks `quote()` until `condition` holds for it, at most `seconds`.
        func poll(within seconds: Double, _ condition: (String) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(await quote()) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
        // Served stale: the last quote stands in, with the venue's error (the frames' own times
        // are hours old, so the age alone would not tell).
        let stale = await poll(within: 30) { $0.contains("stream down") && $0.contains(#""stale":true"#) }
        let staleText = await quote()
        #expect(stale, "\(staleText)")
        let metrics = try await RawHTTPClient.get(port: port, "/metrics").text
        #expect(
            metrics.contains(#"agg_venue_stream_state{exchange="upbit",state="down"} 1"#)
                || metrics.contains(#"agg_venue_stream_state{exchange="upbit",state="live"} 1"#), "\(metrics)")
        let recovered = await poll(within: 30) { $0.contains(#""errors":[]"#) && stream.connections.count >= 3 }
        let recoveredText = await quote()
        #expect(recovered, "\(recoveredText)")
        let after = try await RawHTTPClient.get(port: port, "/metrics").text
        #expect(after.contains(#"agg_venue_stream_state{exchange="upbit",state="live"} 1"#), "\(after)")
        #expect(after.contains(#"agg_venue_stream_reconnects_total{exchange="upbit"} 1"#), "\(after)")
        let status = await EndToEndStreamWatchTests.stop(process)
        #expect(status == 0, "\(stderr.text)")
    }
}
