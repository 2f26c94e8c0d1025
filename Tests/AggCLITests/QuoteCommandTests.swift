import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions

@Suite("agg quote")
struct QuoteCommandTests {
    @Test("JSON output has exactly the documented shape and values")
    func jsonShape() async throws {
        let run = await runCLI(
            ["quote", "BTC", "--exchange", "bithumb", "--offline", "--format", "json"], now: QuoteAgeOutputTests.now)
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"quotes":[{"exchange":"bithumb","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80630000",\
                "open":"79934000","high":"81500000","low":"77734000","previousClose":"79999000","change":"-435000",\
                "changePercent":"-0.54","changeBasis":"rolling24h","baseVolume":"1368.01423432",\
                "quoteVolume":"109282011238.50126","timestamp":"2024-08-08T08:12:15.027Z",\
                "receivedAt":"2024-08-08T08:12:27.527Z","ageSeconds":"12.500","stale":false}],"errors":[]}

                """)
        #expect(
            run.error
                == "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data\n"
        )
    }

    @Test("one failing coin still prints the others, reports the venue's code and exits 1")
    func partialFailure() async throws {
        let run = await runCLI(["quote", "BTC", "NOPE", "--exchange", "bithumb", "--offline", "--format", "json"])
        #expect(run.status == 1)
        let json = try run.json()
        #expect(try json["quotes"].elements().map { try $0["symbol"].string() } == ["BTC/KRW"])
        #expect(try json["errors"][0]["symbol"].string() == "NOPE/KRW")
        #expect(try json["errors"][0]["kind"].string() == "notListed")
        #expect(run.errorLines.last == "agg: bithumb NOPE/KRW: not listed")
    }

    @Test("a coin missing from the batch answer has no venue code: \"code\" is null, as the README shows")
    func notListedCodeIsNull() async throws {
        let run = await runCLI(["quote", "BTC", "NOPE", "--exchange", "bithumb", "--offline", "--format", "json"])
        #expect(run.status == 1)
        #expect(
            try run.json()["errors"].elements().map { $0.value?.serialized() } == [
                #"{"exchange":"bithumb","symbol":"NOPE/KRW","kind":"notListed","code":null,"message":"NOPE/KRW is not listed"}"#
            ])
    }

    @Test("a single unlisted coin is not listed, with Bithumb's 5500 and Korean message verbatim and glossed")
    func venueErrorJSON() async throws {
        let run = await runCLI(["quote", "NOPE", "--exchange", "bithumb", "--offline", "--format", "json"])
        #expect(run.status == 1)
        #expect(
            run.output
                == "{\"quotes\":[],\"errors\":[{\"exchange\":\"bithumb\",\"symbol\":\"NOPE/KRW\",\"kind\":\"notListed\","
                + "\"code\":\"5500\",\"message\":\"잘못된 코인명입니다.\"}]}\n")
        #expect(
            run.errorLines.last
                == "agg: bithumb NOPE/KRW: not listed (error 5500: 잘못된 코인명입니다. [English: invalid coin name])")
    }

    @Test("the table groups thousands and aligns columns")
    func table() async throws {
        let run = await runCLI(["quote", "BTC", "ETH", "--exchange", "bithumb", "--offline", "--format", "table"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("EXCHANGE  MARKET"))
        #expect(lines[1].contains("80,630,000") && lines[1].contains("▼ -0.54%") && lines[1].contains("77,734,000"))
        #expect(lines[2].contains("3,406,000") && lines[2].contains("▲ +0.47%"))
        #expect(
            lines[1].range(of: "80,630,000")?.upperBound.utf16Offset(in: lines[1])
                == lines[2].range(of: "3,406,000")?.upperBound.utf16Offset(in: lines[2]))
        #expect(!run.output.contains("\u{1B}["))
    }

    /// Bithumb, Binance and Coinbase measure their change over a rolling 24 hours; Upbit since
    /// 00:00 UTC (09:00 in Korea). A column headed 24H would be wrong for Upbit's row.
    @Test("the change column is headed 24H only when every row's change is over a rolling 24 hours")
    func changeBasisHeader() async throws {
        let rolling = await runCLI(["quote", "BTC", "-e", "bithumb,binance,coinbase", "--offline", "-f", "table"])
        #expect(
            rolling.output.split(separator: "\n").first?.hasPrefix("EXCHANGE  MARKET          LAST       24H") == true)
        #expect(!rolling.output.contains("BASIS"))

        let mixed = await runCLI(["quote", "BTC", "--offline", "-f", "table"], now: QuoteAgeOutputTests.now)
        #expect(mixed.status == 0)
        #expect(
            mixed.output == """
                EXCHANGE  MARKET          LAST  CHANGE %  BASIS               CHANGE        HIGH         LOW     VOLUME  UPDATED (UTC)        AGE
                binance   BTC/USDT   58,412.07  ▼ -0.64%  rolling 24h        -378.46   59,133.50   56,411.23  31,245.68  2024-08-08 08:12:14  12s
                bithumb   BTC/KRW   80,630,000  ▼ -0.54%  rolling 24h       -435,000  81,500,000  77,734,000   1,368.01  2024-08-08 08:12:15  12s
                coinbase  BTC/USD    58,431.29  ▼ -0.63%  rolling 24h        -370.85   59,140.01   56,420.50  14,871.31  2024-08-08 08:12:14  12s
                upbit     BTC/KRW   80,651,000  ▲ +1.35%  since 00:00 UTC  1,071,000  81,480,000  79,120,000   3,876.22  2024-08-08 08:12:15  12s

                """)

        let upbit = await runCLI(["quote", "BTC", "-e", "upbit", "--offline", "-f", "table"])
        let lines = upbit.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("CHANGE %  BASIS") == true)
        #expect(!(lines.first?.contains("24H") ?? true))
        #expect(lines.last?.contains("▲ +1.35%  since 00:00 UTC") == true)
    }

    @Test(
        "JSON and CSV carry each venue's change basis",
        arguments: [
            ("binance", "rolling24h"), ("bithumb", "rolling24h"), ("coinbase", "rolling24h"),
            ("upbit", "sinceUTCMidnight"),
        ])
    func changeBasisData(venue: String, basis: String) async throws {
        let json = await runCLI(["quote", "BTC", "-e", venue, "--offline", "-f", "json"])
        #expect(try json.json()["quotes"][0]["changeBasis"].string() == basis)
        let csv = await runCLI(["quote", "BTC", "-e", venue, "--offline", "-f", "csv"])
        let rows = csv.output.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let column = try #require(rows.first?.firstIndex(of: "changeBasis"))
        #expect(rows.count == 2)
        #expect(rows.last?[column] == Substring(basis))
    }

    @Test("colour only when asked for or on a terminal without NO_COLOR")
    func colour() async throws {
        let forced = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table", "--color", "always"])
        #expect(forced.output.contains("\u{1B}[31m▼ -0.54%\u{1B}[0m"))
        let terminal = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table"], terminal: true)
        #expect(terminal.output.contains("\u{1B}["))
        let noColor = await runCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table"], environment: ["NO_COLOR": "1"],
            terminal: true)
        #expect(!noColor.output.contains("\u{1B}["))
        let dumb = await runCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table"], environment: ["TERM": "dumb"],
            terminal: true)
        #expect(!dumb.output.contains("\u{1B}["))
    }

    @Test("a terminal defaults to a table, a pipe to JSON")
    func defaultFormat() async throws {
        let piped = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline"])
        #expect(piped.output.hasPrefix("{\"quotes\""))
        let terminal = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "--no-color"], terminal: true)
        #expect(terminal.output.hasPrefix("EXCHANGE"))
    }

    @Test("CSV has a header row and exact values")
    func csv() async throws {
        let run = await runCLI(
            ["quote", "BTC", "--exchange", "bithumb", "--offline", "--format", "csv"], now: QuoteAgeOutputTests.now)
        #expect(
            run.output == """
                exchange,symbol,base,quote,last,open,high,low,previousClose,change,changePercent,changeBasis,baseVolume,quoteVolume,timestamp,stale,receivedAt,ageSeconds
                bithumb,BTC/KRW,BTC,KRW,80630000,79934000,81500000,77734000,79999000,-435000,-0.54,rolling24h,1368.01423432,109282011238.50126,2024-08-08T08:12:15.027Z,false,2024-08-08T08:12:27.527Z,12.500

                """)
    }

    @Test("--all lists every market of the venue")
    func all() async throws {
        let run = await runCLI(["quote", "--all", "--exchange", "bithumb", "--offline", "--format", "json"])
        #expect(run.status == 0)
        let quotes = try run.json()["quotes"].elements()
        #expect(quotes.count == 480)
        #expect(try quotes.map { try $0["symbol"].string() } == quotes.map { try $0["symbol"].string() }.sorted())
    }

    @Test("an ALL answer without a date still quotes every coin: no time in the table, null in JSON, empty in CSV")
    func allWithoutDate() async throws {
        let body = String(decoding: try Fixtures.bytes("bithumb/ticker_ALL_KRW_nodate.json"), as: UTF8.self)
        let arguments = ["quote", "BTC", "ETH", "-e", "bithumb"]
        let json = await runCLI(arguments + ["-f", "json"], http: ScriptedHTTPClient(body: body))
        #expect(json.status == 0)
        let quotes = try json.json()["quotes"].elements()
        #expect(try quotes.map { try $0["symbol"].string() } == ["BTC/KRW", "ETH/KRW"])
        #expect(quotes.allSatisfy { $0["timestamp"].value == .null })
        // Without the venue's time, the age is measured from when agg received the answer.
        let now = QuoteAgeOutputTests.now
        let table = await runCLI(arguments + ["-f", "table"], http: ScriptedHTTPClient(body: body), now: now)
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        // UPDATED (UTC) is "-" padded to its title's 13 columns, then AGE.
        #expect(lines.dropFirst().allSatisfy { $0.hasSuffix("  -" + String(repeating: " ", count: 14) + "0.0s") })
        let csv = await runCLI(arguments + ["-f", "csv"], http: ScriptedHTTPClient(body: body), now: now)
        let csvLines = csv.output.split(separator: "\n")
        #expect(csvLines.count == 3)
        #expect(csvLines.dropFirst().allSatisfy { $0.hasSuffix(",,false,2024-08-08T08:12:27.527Z,0.000") })
        #expect(csvLines.dropFirst().allSatisfy { $0.contains(",rolling24h,") })
    }

    @Test("a BTC-quoted market through --quote and through BASE/QUOTE")
    func btcMarket() async throws {
        for arguments in [["ETH", "--quote", "btc"], ["eth/btc"]] {
            let run = await runCLI(["quote"] + arguments + ["-e", "bithumb", "--offline", "-f", "json"])
            #expect(run.status == 0)
            #expect(try run.json()["quotes"][0]["last"].string() == "0.04224")
        }
    }

    @Test(
        "bad symbols are usage errors before any request",
        arguments: ["../x", "B%2FTC", "B TC", "", "BTC/", "/KRW", "A/B/C", "ABCDEFGHIJKLMNOP", "비트코인", "BTC-KRW"])
    func badSymbols(symbol: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(["quote", symbol, "--exchange", "bithumb"], http: client)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains("invalid symbol '\(symbol)'"))
        #expect(run.output.isEmpty)
        #expect(client.requests.isEmpty)
    }

    @Test(
        "bad command lines exit 64 with one line naming the problem",
        arguments: [
            (
                ["quote", "BTC", "--exchange", "nope"],
                "unknown exchange 'nope'; known: binance, bithumb, coinbase, exchangerate, upbit"
            ),
            (["quote", "BTC", "--exchnage", "bithumb"], "did you mean '--exchange'?"),
            (["quote", "BTC", "--format", "xml"], "invalid value 'xml' for --format"),
            (["quote", "BTC", "--timeout", "-1"], "invalid --timeout '-1'"),
            (["quote", "BTC", "--timeout", "abc"], "invalid --timeout 'abc'"),
            (["quote", "BTC", "--exchange"], "option --exchange needs a value"),
            (["quote"], "name at least one SYMBOL"),
            (["quote", "BTC", "--all"], "--all lists every market"),
            (["qoute", "BTC"], "did you mean 'quote'?"),
            (["quote", "BTC", "--quote", "USDT", "--exchange", "bithumb"], "bithumb does not quote in USDT"),
            (["--bogus"], "unknown option '--bogus'"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = await runCLI(arguments)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
    }

    @Test("a transport failure is exit 1 with a line naming the venue")
    func transportFailure() async throws {
        let client = ScriptedHTTPClient { request in
            throw TransportError.timeout(url: request.url, seconds: 2)
        }
        let run = await runCLI(["quote", "BTC", "-e", "bithumb", "-f", "json", "--timeout", "2"], http: client)
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "agg: bithumb BTC/KRW: no answer within 2 s from https://api.bithumb.com/public/ticker/BTC_KRW"
            ])
        #expect(try run.json()["errors"][0]["kind"].string() == "timeout")
    }

    @Test("AGG_BITHUMB_URL replaces the base URL and keeps its path prefix")
    func baseURLOverride() async throws {
        let body = try Fixtures.bytes("bithumb/ticker_BTC_KRW.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        let run = await runCLI(
            ["quote", "BTC", "-e", "bithumb"], environment: ["AGG_BITHUMB_URL": "http://127.0.0.1:8080/bithumb"],
            http: client)
        #expect(run.status == 0)
        #expect(client.requests.map(\.url) == ["http://127.0.0.1:8080/bithumb/public/ticker/BTC_KRW"])
    }
}

@Suite("agg help, version and exchanges")
struct HelpTests {
    @Test("help is reachable four ways and names every command", arguments: [["--help"], ["help"], ["-h"], []])
    func overview(arguments: [String]) async {
        let run = await runCLI(arguments)
        #expect(run.status == 0)
        for command in CLI.commands {
            #expect(run.output.contains("  " + command.spec.name))
        }
    }

    @Test("command help shows usage, options and an example", arguments: [["help", "quote"], ["quote", "--help"]])
    func commandHelp(arguments: [String]) async {
        let run = await runCLI(arguments)
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("USAGE: agg quote SYMBOL..."))
        #expect(run.output.contains("--exchange ID[,ID...]"))
        #expect(run.output.contains("EXAMPLES:\n  agg quote BTC --exchange bithumb"))
    }

    @Test("--version prints the version")
    func version() async {
        let run = await runCLI(["--version"])
        #expect(run.output == "agg \(AggVersion.current)\n")
    }

    @Test("exchanges lists each adapter's capabilities as data")
    func exchanges() async throws {
        let run = await runCLI(["exchanges", "--format", "json"])
        #expect(
            try run.json()["exchanges"].elements().map { try $0["id"].string() }
                == ["binance", "bithumb", "coinbase", "exchangerate", "upbit"])
        let entry = try run.json()["exchanges"][1]
        #expect(try entry["id"].string() == "bithumb")
        #expect(try entry["quoteCurrencies"].elements().map { try $0.string() } == ["KRW", "BTC"])
        #expect(
            try entry["capabilities"].elements().map { try $0.string() }
                == [
                    "ticker", "allTickers", "markets", "candles", "trades", "orderBook", "transferStatus", "stream",
                    "events",
                ])
        #expect(try entry["baseURL"].string() == "https://api.bithumb.com")
    }
}
