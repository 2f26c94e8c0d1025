import AggJSON
import AggTestKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Rule 1 of issue 20, through the real binary: Bithumb's recorded ALL answer with XRP's price
/// damaged (`"1,234"`). Every other coin still answers; XRP alone fails, with its own path, in
/// every front end: `quote`, `premium`, `record` and `serve`.
@Suite("agg end to end: one bad entry costs that entry")
struct EndToEndBadEntryTests {
    static let xrpMessage = "unexpected response at $.data.XRP.closing_price: '1,234' is not a decimal number"
    static let xrpError = "agg: bithumb XRP/KRW: " + xrpMessage
    /// The `AGG_DEBUG` line naming the skipped entry (`SkippedEntry.description`).
    static let xrpDebug = "agg: debug: bithumb: skipped XRP: " + xrpMessage
    /// The JSON `errors` entry of the skipped entry, as `quote` writes it.
    static let xrpJSONError =
        #"{"exchange":"bithumb","symbol":"XRP/KRW","kind":"decoding","code":null,"message":""#
        + #"unexpected response at $.data.XRP.closing_price: '1,234' is not a decimal number"}"#

    /// Serves `venues` (every venue and FX source when `nil`), Bithumb's ALL answer damaged.
    static func server(venues: [String]? = ["bithumb"]) throws -> FixtureServer {
        let recorded = String(decoding: try Fixtures.bytes("bithumb/ticker_ALL_KRW.json"), as: UTF8.self)
        let good = #""XRP":{"opening_price":"781","closing_price":"790.4""#
        let damaged = recorded.replacingOccurrences(
            of: good, with: #""XRP":{"opening_price":"781","closing_price":"1,234""#)
        precondition(damaged != recorded, "the fixture's XRP entry moved")
        return try FixtureServer(venues: venues) { venue, request in
            venue == "bithumb" && request.path == "/public/ticker/ALL_KRW" ? .json(damaged) : nil
        }
    }

    func environment(_ server: FixtureServer, debug: Bool = false) -> [String: String] {
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-bad-entry-" + UUID().uuidString
        environment["XDG_CONFIG_HOME"] = environment["AGG_HOME"]
        environment["NO_COLOR"] = "1"
        if debug { environment["AGG_DEBUG"] = "1" }
        return environment
    }

    @Test("quote BTC ETH XRP: BTC and ETH answer, XRP reports its own path")
    func batch() async throws {
        let server = try Self.server()
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "XRP", "-e", "bithumb", "-f", "json"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.errorLines == [Self.xrpError])
        let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
        let quotes = try json["quotes"].elements()
        #expect(try quotes.map { try $0["symbol"].string() } == ["BTC/KRW", "ETH/KRW"])
        #expect(try quotes.map { try $0["last"].string() } == ["80630000", "3406000"])
        #expect(try json["errors"].elements().map { try $0["symbol"].string() } == ["XRP/KRW"])
    }

    @Test("quote --all: every other coin answers; JSON errors name XRP and the path")
    func all() async throws {
        let server = try Self.server()
        let run = try await AggBinary.run(
            ["quote", "--all", "-e", "bithumb", "-f", "json"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.errorLines == [Self.xrpError])
        let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
        #expect(try json["quotes"].elements().count == 479)
        let errors = try json["errors"].elements()
        #expect(errors.count == 1)
        #expect(try errors.first?["symbol"].string() == "XRP/KRW")
        #expect(try errors.first?["kind"].string() == "decoding")
        #expect(
            try errors.first?["message"].string()
                == "unexpected response at $.data.XRP.closing_price: '1,234' is not a decimal number")
    }

    static let premiumVenues = ["bithumb", "upbit", "binance", "exchangerate"]

    @Test("premium -f json: XRP answers from upbit; one errors entry names bithumb, XRP/KRW and the path; exit 0")
    func premiumJSON() async throws {
        let server = try Self.server(venues: Self.premiumVenues)
        let run = try await AggBinary.run(
            [
                "premium", "BTC", "XRP", "-e", "bithumb,upbit,binance", "--fx", "exchangerate", "--sort", "symbol",
                "-f", "json",
            ],
            environment: environment(server, debug: true))
        #expect(run.status == 0, "\(run.error)")
        #expect(run.errorLines == [Self.xrpDebug])
        let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
        let rows = try json["rows"].elements()
        #expect(try rows.map { try $0["base"].string() } == ["BTC", "XRP"])
        #expect(
            try rows[0]["venues"].elements().map { try $0["exchange"].string() } == ["bithumb", "upbit", "binance"])
        #expect(try rows[1]["venues"].elements().map { try $0["exchange"].string() } == ["upbit", "binance"])
        #expect(try json["errors"].elements().map { $0.value?.serialized() } == [Self.xrpJSONError])
    }

    @Test("premium --watch: each refresh's JSON line has the errors entry; AGG_DEBUG names the entry each refresh")
    func premiumWatch() async throws {
        let server = try Self.server(venues: Self.premiumVenues)
        let run = try await AggBinary.run(
            [
                "premium", "BTC", "XRP", "-e", "bithumb,upbit,binance", "--fx", "exchangerate", "--sort", "symbol",
                "--watch", "--count", "2", "--interval", "1", "-f", "json",
            ],
            environment: environment(server, debug: true))
        #expect(run.status == 0, "\(run.error)")
        #expect(run.errorLines == [Self.xrpDebug, Self.xrpDebug])
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let json = JSONCursor(try JSONParser.parse(Array(line.utf8)))
            #expect(try json["rows"].elements().map { try $0["base"].string() } == ["BTC", "XRP"])
            #expect(try json["errors"].elements().map { $0.value?.serialized() } == [Self.xrpJSONError])
        }
    }

    @Test(
        "premium XRP with bithumb the only local venue: the skipped entry is the error line before 'not listed'; exit 1"
    )
    func premiumMissingSymbol() async throws {
        let server = try Self.server(venues: Self.premiumVenues)
        let run = try await AggBinary.run(
            ["premium", "BTC", "XRP", "-e", "bithumb,binance", "--fx", "exchangerate", "-f", "json"],
            environment: environment(server))
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "agg: bithumb: skipped XRP: " + Self.xrpMessage,
                "agg: XRP is not listed on both a local and a global venue",
            ])
        let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
        #expect(try json["rows"].elements().map { try $0["base"].string() } == ["BTC"])
        #expect(try json["errors"].elements().map { try $0["kind"].string() } == ["decoding", "notListed"])
        #expect(try json["errors"].elements().first?.value?.serialized() == Self.xrpJSONError)
    }

    @Test("premium table: the board is whole but for bithumb's XRP; AGG_DEBUG names the entry, else stderr is empty")
    func premiumTable() async throws {
        let server = try Self.server(venues: Self.premiumVenues)
        let arguments = ["premium", "XRP", "-e", "bithumb,upbit,binance", "--fx", "exchangerate", "-f", "table"]
        let debugged = try await AggBinary.run(arguments, environment: environment(server, debug: true))
        #expect(debugged.status == 0)
        #expect(debugged.errorLines == [Self.xrpDebug])
        #expect(debugged.output.contains("XRP"))
        let quiet = try await AggBinary.run(arguments, environment: environment(server))
        #expect(quiet.status == 0)
        #expect(quiet.error == "")
        #expect(quiet.output == debugged.output)
    }

    @Test("record: the tick stores bithumb's other 479 tickers and counts the bad entry; AGG_DEBUG names it")
    func record() async throws {
        // Every venue is served: record asks every FX source (three USD→KRW rates).
        let server = try Self.server(venues: nil)
        let run = try await AggBinary.run(
            ["record", "-e", "bithumb", "--count", "1", "--interval", "60"],
            environment: environment(server, debug: true))
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        // The line starts with the tick's time.
        #expect(
            lines.first?.split(separator: " ", maxSplits: 1).last
                == "tick 1: 482 rows (479 prices, 3 rates, 0 premiums), 4 answered, 0 failed, 0 skipped, 1 bad entry")
        #expect(run.errorLines.filter { $0.hasPrefix("agg: debug:") } == [Self.xrpDebug])
        #expect(
            run.errorLines.last
                == "agg: record: done after 1 tick: 482 rows, 0 failures, 0 skips, 0 pruned, 1 bad entry")
    }

    @Test("serve: bithumb stays up with its other coins; /v1/quote and /v1/premium name the entry; a counter counts it")
    func serve() async throws {
        let server = try Self.server(venues: Self.premiumVenues)
        defer { server.stop() }
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb,upbit,binance", "--fx",
                "exchangerate",
                "--interval", "3600",
            ],
            environment: environment(server))
        defer { process.terminate() }
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 30) { $0.contains("polling") })
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        // The first poll is over when every source has answered: bithumb's, upbit's, binance's
        // tickers, exchangerate's table and the two transfer lists make six publications.
        var health = ""
        for _ in 0..<1200 where !health.contains(#""generation":6,"#) {
            health = (try? await RawHTTPClient.get(port: port, "/healthz").text) ?? ""
            if !health.contains(#""generation":6,"#) { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(health.hasPrefix(#"{"status":"ok","generation":6,"#), "\(health)")
        let metrics = try await RawHTTPClient.get(port: port, "/metrics").text.split(separator: "\n")
        #expect(metrics.contains(#"agg_source_up{exchange="bithumb"} 1"#))
        let typed = metrics.contains("# TYPE agg_skipped_entries_total counter")
        #expect(typed)
        #expect(
            metrics.filter { $0.hasPrefix("agg_skipped_entries_total") } == [
                #"agg_skipped_entries_total{exchange="binance"} 0"#,
                #"agg_skipped_entries_total{exchange="bithumb"} 1"#,
                #"agg_skipped_entries_total{exchange="upbit"} 0"#,
            ])
        let quote = try await RawHTTPClient.get(port: port, "/v1/quote?symbol=BTC,XRP&exchange=bithumb")
        #expect(quote.status == 200)
        let quoted = JSONCursor(try JSONParser.parse(quote.body))
        #expect(try quoted["quotes"].elements().map { try $0["symbol"].string() } == ["BTC/KRW"])
        #expect(try quoted["errors"].elements().map { $0.value?.serialized() } == [Self.xrpJSONError])
        let premium = try await RawHTTPClient.get(port: port, "/v1/premium")
        #expect(premium.status == 200)
        let board = JSONCursor(try JSONParser.parse(premium.body))
        #expect(try board["errors"].elements().map { $0.value?.serialized() } == [Self.xrpJSONError])
        let xrp = try board["rows"].elements().first { try $0["base"].string() == "XRP" }
        #expect(try xrp?["venues"].elements().map { try $0["exchange"].string() } == ["upbit", "binance"])
    }

    @Test("search: the damaged entry is left out of Bithumb's list; AGG_DEBUG and JSON errors name it; exit 0")
    func search() async throws {
        let server = try Self.server()
        for debug in [false, true] {
            let run = try await AggBinary.run(
                ["search", "XR", "-e", "bithumb", "--quote", "KRW", "-f", "json"],
                environment: environment(server, debug: debug))
            #expect(run.status == 0)
            #expect(run.errorLines == (debug ? [Self.xrpDebug] : []))
            let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
            let symbols = try json["results"].elements().map { try $0["symbol"].string() }
            // XRP/KRW would rank first; WIXR/KRW, the other match, still answers.
            #expect(symbols == ["WIXR/KRW"])
            #expect(try json["errors"].elements().map { $0.value?.serialized() } == [Self.xrpJSONError])
        }
    }
}
