import AggCore
import AggStore
import AggTestKit
import Foundation
import Testing

/// `agg record --stream` through the built binary: two venues stream from loopback WebSocket
/// servers playing `Fixtures/<id>/stream/ticker.jsonl`, REST and FX answer from the fixture
/// server. Each tick stores the frames' exact values (read through the venue's own codec, never
/// copied by hand), a venue whose stream is live is never asked over REST, and a drop costs one
/// gap-fill request.
// Serialized, as the watch --stream suite: each case runs an agg process beside three servers.
@Suite("agg record --stream end to end", .serialized, .timeLimit(.minutes(5)))
struct EndToEndRecordStreamTests {
    static let venues = ["upbit", "kraken"]
    static let symbols = ["BTC", "ETH"]

    /// Every value each of BTC and ETH takes in `venue`'s ticker script, in order, read through
    /// the venue's codec.
    static func frameQuotes(_ venue: String) throws -> [Market: [Quote]] {
        let registry = EndToEndEveryVenueTests.shipped
        let descriptor = try #require(registry.descriptor(id: venue))
        let adapter = try registry.makeAdapter(
            id: venue,
            environment: AdapterEnvironment(baseURL: "http://127.0.0.1:9", http: ScriptedHTTPClient(body: "")))
        let codec = try #require(adapter.tickerStream)
        let asked = symbols.map { Market(base: $0, quote: descriptor.homeCurrency) }
        var quotes: [Market: [Quote]] = [:]
        for step in try WebSocketScript.fixture(venue: venue, name: "ticker").steps {
            guard case .send(let opcode, let data, _, let repeats) = step else { continue }
            let message: StreamMessage
            switch opcode {
            case .text: message = .text(String(decoding: data, as: UTF8.self))
            case .binary: message = .binary(data)
            default: continue
            }
            for _ in 0..<repeats {
                guard case .quotes(let read, _) = codec.read(message, receivedAt: Timestamp(millisecondsSince1970: 0))
                else { continue }
                for quote in read where asked.contains(quote.market) { quotes[quote.market, default: []].append(quote) }
            }
        }
        return quotes
    }

    /// One progress line's tick number and the venues it streamed (`, 2 streamed (kraken, upbit)`).
    struct TickLine: Equatable {
        var number: Int
        var time: String
        var streamed: [String]
        var answered: Int
        var failed: Int
    }

    static func tickLines(_ output: String) -> [TickLine] {
        output.split(separator: "\n").compactMap { line -> TickLine? in
            let words = line.split(separator: " ").map(String.init)
            guard words.count > 2, words[1] == "tick", let number = Int(words[2].dropLast()) else { return nil }
            func count(before word: String) -> Int {
                guard let index = words.firstIndex(where: { $0.hasPrefix(word) }), index > 0 else { return -1 }
                return Int(words[index - 1]) ?? -1
            }
            var streamed: [String] = []
            if let open = line.range(of: " streamed (") {
                streamed = line[open.upperBound...].prefix { $0 != ")" }.split(separator: ", ").map(String.init)
            }
            return TickLine(
                number: number, time: words[0], streamed: streamed, answered: count(before: "answered"),
                failed: count(before: "failed"))
        }
    }

    @Test(
        "each tick stores the frames' exact values; no REST ticker request for a live stream; a drop costs one gap fill"
    )
    func streamsAndDrop() async throws {
        let registry = EndToEndEveryVenueTests.shipped
        let upbit = try #require(registry.descriptor(id: "upbit"))
        let kraken = try #require(registry.descriptor(id: "kraken"))
        let upbitTicker = try WebSocketScript.fixture(venue: "upbit", name: "ticker")
        // upbit's first connection plays its script and drops; the second plays it again and stays.
        let upbitStream = try WebSocketLoopbackServer(
            scripts: [WebSocketScript(steps: upbitTicker.steps + [.drop]), upbitTicker])
        let krakenStream = try WebSocketLoopbackServer(
            script: try WebSocketScript.fixture(venue: "kraken", name: "ticker"))
        let rest = try FixtureServer(venues: Self.venues + EndToEndRecordTests.fxSources)
        let home = unusedTemporaryPath()
        defer {
            upbitStream.stop()
            krakenStream.stop()
            rest.stop()
            try? FileManager.default.removeItem(atPath: home)
        }
        var environment = rest.environment
        environment[upbit.streamURLVariable] = upbitStream.url()
        environment[kraken.streamURLVariable] = krakenStream.url()
        environment["AGG_HOME"] = home
        let ticks = 6
        let run = try await AggBinary.run(
            ["record", "BTC", "ETH", "-e", "upbit,kraken", "--stream", "--interval", "1", "--count", String(ticks)],
            environment: environment)
        #expect(run.status == 0, "\(run.error)")
        let errors = run.error.split(separator: "\n").map(String.init)
        #expect(
            errors.filter { !$0.hasPrefix("agg: record: ") } == [
                "agg: upbit: stream down (dropped without a close frame); reconnecting", "agg: upbit: stream back",
            ])
        // A tick that came between upbit's reconnect and its gap fill found no fresh quote of it:
        // it records none and says why (never the stale values as new).
        #expect(
            errors.filter { $0.hasPrefix("agg: record: ") && !$0.hasPrefix("agg: record: done after ") }.allSatisfy {
                $0.hasPrefix("agg: record: upbit: ") && $0.contains("stream down")
            }, "\(run.error)")
        let lines = Self.tickLines(run.output)
        #expect(lines.map(\.number) == Array(1...ticks), "\(run.output)")
        #expect(
            lines.allSatisfy { $0.failed == 0 || ($0.failed == 1 && !$0.streamed.contains("upbit")) },
            "\(run.output)")
        // The stream is back well before the last ticks: they sample both venues.
        #expect(lines.suffix(2).allSatisfy { $0.streamed == ["kraken", "upbit"] }, "\(run.output)")

        // REST: a streamed venue is asked only in a tick that did not stream it (its stream was
        // starting or down), and upbit once more, for the gap fill after its drop.
        func restTickerRequests(_ venue: String) -> Int {
            let prefix = venue == "upbit" ? "/upbit/v1/ticker" : "/kraken/0/public/Ticker"
            return rest.requests.filter { $0.path.hasPrefix(prefix) }.count
        }
        let restTicks = { (venue: String) in
            lines.filter { !$0.streamed.contains(venue) && $0.failed == 0 }.count
        }
        #expect(restTickerRequests("upbit") == 1 + restTicks("upbit"), "\(rest.requests.map(\.path))")
        #expect(restTickerRequests("kraken") == restTicks("kraken"), "\(rest.requests.map(\.path))")
        #expect(upbitStream.connections.count == 2)
        #expect(upbitStream.connections.map(\.violations) == [[], []])
        #expect(krakenStream.connections.map(\.violations) == [[]])

        // The stored prices. At every tick that streamed a venue, each market's value is one of
        // its frames' values or its REST value (the gap fill after upbit's drop is a fresh quote,
        // and a tick may come before the replayed frames on a loaded machine); the last frame's
        // value is stored exactly, with the frame's venue time, at the last tick (a second after
        // the tick before, which already streamed both venues).
        let restValues = try await Self.restValues()
        let store = try Store.open(path: home + "/agg.sqlite")
        for venue in Self.venues {
            let frames = try Self.frameQuotes(venue)
            #expect(frames.count == 2, "\(venue)'s script must carry BTC and ETH")
            for (market, quotes) in frames {
                let last = try #require(quotes.last)
                let rest = try #require(restValues["\(venue) \(market.base)"], "\(venue) \(market) over REST")
                let stored = try await store.prices(
                    HistoryQuery(symbol: market.base, exchanges: [venue], since: Timestamp(millisecondsSince1970: 0))
                )
                .filter { $0.market == market }
                for line in lines where line.streamed.contains(venue) {
                    let point = try #require(
                        stored.first { $0.time.description == line.time }, "\(venue) \(market) at tick \(line.number)")
                    #expect(
                        quotes.map(\.last).contains(point.last) || point.last == rest,
                        "\(venue) \(market) tick \(line.number): \(point.last)")
                    #expect(point.receivedAt != nil)
                    if line.number == ticks {
                        #expect(point.last == last.last, "\(venue) \(market) tick \(line.number)")
                        #expect(point.venueTime == last.timestamp, "\(venue) \(market) tick \(line.number)")
                    }
                }
            }
        }
    }

    /// Each venue's REST `last` for BTC and ETH, from the same fixtures the fixture server
    /// serves (`agg quote --offline`, which asks no server), keyed `venue COIN`.
    private static func restValues() async throws -> [String: Decimal] {
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "-e", venues.joined(separator: ","), "--offline", "-f", "csv"],
            environment: ["AGG_HOME": unusedTemporaryPath()])
        try #require(run.status == 0, "\(run.error)")
        var values: [String: Decimal] = [:]
        for row in run.output.split(separator: "\n").dropFirst() {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count > 4, let last = Decimal(string: cells[4]) else { continue }
            values["\(cells[0]) \(cells[2])"] = last
        }
        return values
    }

    @Test(
        "--stream needs named coins and live venues: usage errors (exit 64)",
        arguments: [
            (["record", "--stream"], "agg: --stream follows the coins named: name them (agg record BTC ETH --stream)"),
            (
                ["record", "BTC", "--stream", "--offline"],
                "agg: --stream follows live streams: it cannot be used with --offline"
            ),
        ])
    func usage(arguments: [String], message: String) async throws {
        let run = try await AggBinary.run(arguments, environment: ["AGG_HOME": unusedTemporaryPath()])
        #expect(run.status == 64)
        #expect(run.error == message + "\n")
    }
}
