import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

#if canImport(Glibc)
    import Glibc
#endif

/// `agg premium --watch --stream` through the built binary: loopback WebSocket servers play the
/// upbit and binance ticker scripts (`Fixtures/<id>/stream/ticker.jsonl`), a fixture server
/// answers the first REST snapshot and the FX source. The board that follows the frames is
/// checked exact against the frames' prices, read through each venue's own codec.
@Suite("agg premium --watch --stream end to end", .serialized, .timeLimit(.minutes(3)))
struct EndToEndPremiumStreamTests {
    /// exchangerate's USD→KRW in its recording.
    static let fx = Decimal(1_331_529_034) / 1_000_000
    /// upbit's USDT/KRW in its REST recording (the frames carry no USDT).
    static let upbitUSDT: Decimal = 1373

    /// The last price of each market in `venue`'s ticker script, read through its codec.
    static func finalPrices(_ venue: String) throws -> [Market: Decimal] {
        let registry = EndToEndEveryVenueTests.shipped
        let adapter = try registry.makeAdapter(
            id: venue,
            environment: AdapterEnvironment(baseURL: "http://127.0.0.1:9", http: ScriptedHTTPClient(body: "")))
        let codec = try #require(adapter.tickerStream)
        var last: [Market: Decimal] = [:]
        for step in try WebSocketScript.fixture(venue: venue, name: "ticker").steps {
            guard case .send(let opcode, let data, _, _) = step else { continue }
            let message: StreamMessage
            switch opcode {
            case .text: message = .text(String(decoding: data, as: UTF8.self))
            case .binary: message = .binary(data)
            default: continue
            }
            guard case .quotes(let quotes, _) = codec.read(message, receivedAt: Timestamp(millisecondsSince1970: 0))
            else { continue }
            for quote in quotes { last[quote.market] = quote.last }
        }
        return last
    }

    /// exchangerate's recorded USD table, dated an hour before the frames (2026-12-03T01:00:00Z),
    /// so that its age against the frames' prices is within the default --max-fx-age.
    static func recentRates() throws -> String {
        let recorded = try String(
            contentsOf: Fixtures.directory.appendingPathComponent("exchangerate/USD_2024-08-21.json"), encoding: .utf8)
        let table = recorded.replacingOccurrences(
            of: #""time_last_update_unix":1724198551"#, with: #""time_last_update_unix":1796259600"#
        ).replacingOccurrences(of: #""time_next_update_unix":1724285181"#, with: #""time_next_update_unix":1796346000"#)
        #expect(table != recorded)
        return table
    }

    /// Upbit's script with its first BTC frame 100 times at once, the price stepped by 1 KRW a
    /// frame (132087000 to 132087099); any subscription.
    static func burst() throws -> WebSocketScript {
        let ticker = try WebSocketScript.fixture(venue: "upbit", name: "ticker")
        // The script's first BTC frame, its price stepped by 1 KRW a frame, 100 frames at once.
        var template: String?
        for step in ticker.steps {
            guard case .send(.binary, let data, _, _) = step else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if text.contains(#""code":"KRW-BTC""#) {
                template = text
                break
            }
        }
        let frame = try #require(template)
        #expect(frame.contains(#""trade_price":132087000,"#))
        var steps: [WebSocketScriptStep] = [.expect(.text, data: nil, match: .json)]
        for index in 0..<100 {
            let text = frame.replacingOccurrences(
                of: #""trade_price":132087000,"#, with: "\"trade_price\":\(132_087_000 + index),")
            steps.append(.send(.binary, data: Array(text.utf8), fragments: 1, repeats: 1))
        }
        return WebSocketScript(steps: steps)
    }

    /// `script` with its subscription check naming `subscription` instead.
    static func subscribing(_ script: WebSocketScript, _ subscription: String) -> WebSocketScript {
        WebSocketScript(
            provenance: script.provenance,
            steps: script.steps.map { step in
                guard case .expect(.text, _, let match) = step else { return step }
                return .expect(.text, data: Array(subscription.utf8), match: match)
            })
    }

    /// One venue's price and premiums on a printed board: `BTC upbit 132087000 3.69 0.56`.
    static func lines(_ board: JSONCursor) throws -> [String] {
        try board["rows"].elements().flatMap { row in
            try row["venues"].elements().map { venue in
                [
                    try row["base"].string(), try venue["exchange"].string(), try venue["last"].string(),
                    (try? venue["premiumPercent"].string()) ?? "-", (try? venue["usdtPremiumPercent"].string()) ?? "-",
                ].joined(separator: " ")
            }
        }
    }

    @Test(
        "agg premium BTC ETH -e upbit,binance --watch --stream -f json: the first board from REST, then boards that follow the frames, premiums exact"
    )
    func followsTheFrames() async throws {
        let upbit = try Self.finalPrices("upbit")
        let binance = try Self.finalPrices("binance")
        // The last frame of each market, and the premiums of upbit's over binance at the FX rate
        // and at upbit's USDT price (binance alone is the global reference).
        var expected: [String] = []
        for base in ["BTC", "ETH"] {
            let local = try #require(upbit[Market(base: base, quote: "KRW")])
            let global = try #require(binance[Market(base: base, quote: "USDT")])
            func percent(_ reference: Decimal) -> String {
                DecimalFormatting.fixed(
                    PriceComparison.premiumPercent(local, reference: reference), places: 2, grouping: false)
            }
            expected.append("\(base) upbit \(local) \(percent(global * Self.fx)) \(percent(global * Self.upbitUSDT))")
            expected.append("\(base) binance \(global) 0.00 -")
        }
        let servers = try PremiumStreamServers(
            upbit: Self.subscribing(
                try WebSocketScript.fixture(venue: "upbit", name: "ticker"),
                #"[{"ticket":"agg"},{"type":"ticker","codes":["KRW-BTC","KRW-ETH","KRW-USDT"]},{"format":"DEFAULT"}]"#))
        defer { servers.stop() }
        let environment = try servers.environment(["AGG_FIXTURES": Fixtures.directory.path])
        let (process, outputPipe, errorPipe) = try AggBinary.start(
            [
                "premium", "BTC", "ETH", "-e", "upbit,binance", "--watch", "--stream", "--fx", "exchangerate",
                "--sort", "symbol", "-f", "json",
            ], environment: environment)
        let output = EndToEndStreamWatchTests.PipeReader(outputPipe)
        let error = EndToEndStreamWatchTests.PipeReader(errorPipe)
        let followed = await RealTime.poll(within: 60) {
            guard let last = output.lines.last, let board = try? JSONCursor(JSONParser.parse(last)) else {
                return false
            }
            return (try? Self.lines(board)) == expected
        }
        let status = await EndToEndStreamWatchTests.stop(process)
        #expect(followed, "\(output.text)\n\(error.text)")
        #expect(status == 0, "\(error.text)")
        #expect(error.text == "")
        // The first board is the REST snapshot's: (80651000 / (58412.07 × 1331.529034) − 1) × 100 = 3.6947
        // → 3.69 %, and (80651000 / (58412.07 × 1373) − 1) × 100 = 0.5626 → 0.56 %.
        let first = try JSONCursor(JSONParser.parse(try #require(output.lines.first)))
        #expect(try Self.lines(first).first == "BTC upbit 80651000 3.69 0.56")
        #expect(try first["fx"]["rate"].string() == "1331.529034")
        // Each venue's tickers were asked over REST once (the first snapshot), never polled while
        // streaming (upbit's transfer status is polled every --interval, as without --stream).
        let tickers = servers.rest.requests.map(\.path).filter {
            $0.hasPrefix("/upbit/v1/ticker") || $0.hasPrefix("/binance/")
        }
        #expect(tickers.sorted() == ["/binance/api/v3/ticker/24hr", "/upbit/v1/ticker/all"], "\(tickers)")
        #expect(servers.upbit.connections.map(\.violations) == [[]])
        #expect(servers.binance.connections.map(\.violations) == [[]])
    }

    @Test("a burst of 100 upbit BTC frames is coalesced: at most 4 boards a second, the last with the last price")
    func burstIsCoalesced() async throws {
        let servers = try PremiumStreamServers(upbit: try Self.burst())
        defer { servers.stop() }
        let environment = try servers.environment()
        let started = Date()
        let (process, outputPipe, errorPipe) = try AggBinary.start(
            ["premium", "BTC", "-e", "upbit,binance", "--watch", "--stream", "--fx", "exchangerate", "-f", "json"],
            environment: environment)
        let output = EndToEndStreamWatchTests.PipeReader(outputPipe)
        let error = EndToEndStreamWatchTests.PipeReader(errorPipe)
        /// Upbit's BTC price on each board printed so far.
        func prices() -> [String] {
            output.lines.compactMap { line in
                guard let board = try? JSONCursor(JSONParser.parse(line)) else { return nil }
                return (try? Self.lines(board))?.first { $0.hasPrefix("BTC upbit ") }?.split(separator: " ")[2]
                    .description
            }
        }
        let last = await RealTime.poll(within: 60) { prices().last == "132087099" }
        let elapsed = Date().timeIntervalSince(started)
        let status = await EndToEndStreamWatchTests.stop(process)
        #expect(last, "\(output.text.suffix(2000))\n\(error.text)")
        #expect(status == 0, "\(error.text)")
        let shown = prices()
        // The first board (REST), then at most 4 a second for as long as the run took, and one
        // more for a slot begun at the end; far fewer than the 100 frames.
        #expect(shown.first == "80651000")
        #expect(shown.count <= 2 + Int((elapsed * 4).rounded(.up)), "\(shown.count) boards in \(elapsed) s")
        #expect(shown.count < 100, "\(shown)")
        // Each board shows a later price than the one before.
        let followed = shown.dropFirst().compactMap { Int($0) }
        #expect(followed == followed.sorted() && Set(followed).count == followed.count, "\(shown)")
    }

    @Test("--count 1 ends after the first board; --stream needs --watch and refuses --offline")
    func countAndUsage() async throws {
        let rest = try FixtureServer(venues: ["upbit", "binance", "exchangerate"])
        defer { rest.stop() }
        let environment = try rest.privateEnvironment([
            "AGG_UPBIT_WS_URL": "ws://127.0.0.1:9/", "AGG_BINANCE_WS_URL": "ws://127.0.0.1:9/",
        ])
        let once = try await AggBinary.run(
            [
                "premium", "BTC", "-e", "upbit,binance", "--watch", "--stream", "--count", "1", "--fx", "exchangerate",
                "-f", "json",
            ], environment: environment)
        #expect(once.status == 0, "\(once.error)")
        #expect(once.output.split(separator: "\n").count == 1)
        let noWatch = try await AggBinary.run(["premium", "--stream"], environment: environment)
        #expect(noWatch.status == 64)
        #expect(noWatch.error == "agg: --stream needs --watch\n")
        let offline = try await AggBinary.run(
            ["premium", "--watch", "--stream", "--offline"], environment: environment)
        #expect(offline.status == 64)
        #expect(offline.error == "agg: --stream follows live streams: it cannot be used with --offline\n")
    }
}
