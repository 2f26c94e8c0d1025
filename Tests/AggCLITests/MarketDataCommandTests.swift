import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

@Suite("agg candles")
struct CandlesCommandTests {
    /// Each venue's recorded bars, exactly: Bithumb's [time, open, close, high, low, volume] rows
    /// mapped to OHLCV; Binance's rows of ints and strings, oldest first; Coinbase's newest-first
    /// number rows oldest first in OHLCV order (CSV); Upbit's newest-first bars oldest first.
    @Test(
        "candles of two bars on each venue: exact, oldest first, in OHLCV order",
        arguments: [
            (
                ["candles", "BTC", "--exchange", "bithumb", "--limit", "2", "--offline", "-f", "json"],
                """
                {"exchange":"bithumb","symbol":"BTC/KRW","interval":"1m","candles":[\
                {"time":"2024-08-07T07:12:00.000Z","open":"77780000","high":"77810000","low":"77778000",\
                "close":"77809000","volume":"2.17582916"},\
                {"time":"2024-08-07T07:13:00.000Z","open":"79312000","high":"79351000","low":"79298000",\
                "close":"79335000","volume":"1.53240152"}]}

                """
            ),
            (
                ["candles", "BTC", "-e", "coinbase", "--offline", "-n", "2", "-f", "csv"],
                """
                time,open,high,low,close,volume
                2024-08-08T08:11:00.000Z,58391.19,58428.91,58381.54,58419.65,6.3521225
                2024-08-08T08:12:00.000Z,58419.65,58437.76,58412.21,58431.29,6.50607712

                """
            ),
            (
                ["candles", "BTC", "-e", "binance", "--offline", "-n", "2", "-f", "json"],
                """
                {"exchange":"binance","symbol":"BTC/USDT","interval":"1m","candles":[\
                {"time":"2024-08-08T08:11:00.000Z","open":"58427.77","high":"58455.1","low":"58421.96",\
                "close":"58444.41","volume":"21.67954"},\
                {"time":"2024-08-08T08:12:00.000Z","open":"58444.41","high":"58455.52","low":"58396.25",\
                "close":"58412.07","volume":"31.39526"}]}

                """
            ),
            (
                ["candles", "BTC", "-e", "upbit", "--offline", "-f", "json", "-n", "2"],
                """
                {"exchange":"upbit","symbol":"BTC/KRW","interval":"1m","candles":[\
                {"time":"2024-08-08T08:11:00.000Z","open":"80669000","high":"80681000","low":"80611000",\
                "close":"80620000","volume":"1.34432821"},\
                {"time":"2024-08-08T08:12:00.000Z","open":"80620000","high":"80660000","low":"80620000",\
                "close":"80651000","volume":"8.90899359"}]}

                """
            ),
        ])
    func venues(arguments: [String], output: String) async throws {
        let run = await runCLI(arguments)
        #expect(run.status == 0)
        #expect(run.output == output)
    }

    @Test("--interval picks the endpoint; the default limit is 60 bars")
    func interval() async throws {
        // Only 1m bars are recorded; the same rows stand in for the venue's 1h answer here.
        let body = try Fixtures.bytes("bithumb/candlestick_BTC_KRW_1m.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        let run = await runCLI(["candles", "btc/krw", "-e", "bithumb", "-i", "1h", "-f", "json"], http: client)
        #expect(run.status == 0)
        #expect(client.requests.map(\.url) == ["https://api.bithumb.com/public/candlestick/BTC_KRW/1h"])
        let json = try run.json()
        #expect(try json["interval"].string() == "1h")
        #expect(try json["candles"].elements().count == 60)
    }

    @Test("CSV and the table use the same exact values")
    func csvAndTable() async throws {
        let csv = await runCLI(["candles", "BTC", "-e", "bithumb", "-n", "1", "--offline", "-f", "csv"])
        #expect(
            csv.output == """
                time,open,high,low,close,volume
                2024-08-07T07:13:00.000Z,79312000,79351000,79298000,79335000,1.53240152

                """)
        let table = await runCLI(["candles", "BTC", "-e", "bithumb", "-n", "1", "--offline", "-f", "table"])
        #expect(
            table.output == """
                BTC/KRW on bithumb · 1m · 1 bar
                TIME (UTC)                 OPEN        HIGH         LOW       CLOSE      VOLUME
                2024-08-07 07:13:00  79,312,000  79,351,000  79,298,000  79,335,000  1.53240152

                """)
    }

    @Test("--chart draws the closes with the exact lowest and highest close as labels")
    func chart() async throws {
        let run = await runCLI(
            ["candles", "BTC", "-e", "bithumb", "-n", "120", "--offline", "--chart"], width: 60)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + CandlesChartShape.height + 2)
        #expect(lines[0] == "BTC/KRW on bithumb · 1m · 120 bars")
        #expect(lines[1].hasPrefix("79,335,000 ┤"))
        #expect(lines[CandlesChartShape.height].hasPrefix("77,723,000 ┤"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        #expect(lines.dropFirst().prefix(CandlesChartShape.height).allSatisfy { DisplayWidth.of($0) <= 60 })
        #expect(lines.last == "close 79,335,000 KRW  ▲ 1,571,000 (+2.02%) since 2024-08-07 05:14:00 UTC")
        #expect(!run.output.contains("\u{1B}["))
    }

    @Test(
        "bad command lines are usage errors before any request",
        arguments: [
            (["candles", "BTC"], "name the venue with --exchange ID; venues with candles: bithumb"),
            (["candles", "BTC", "-e", "testbare"], "testbare does not provide candles; venues with candles: bithumb"),
            (["candles", "BTC", "-e", "bithumb,testbare"], "asks one venue"),
            (
                ["candles", "BTC", "-e", "bithumb", "--limit", "0"],
                "invalid --limit '0': expected a whole number from 1 to 1500 for bithumb"
            ),
            (["candles", "BTC", "-e", "bithumb", "--limit", "1501"], "from 1 to 1500"),
            (["candles", "BTC", "-e", "bithumb", "--limit", "ten"], "invalid --limit 'ten'"),
            (["candles", "BTC", "-e", "bithumb", "--interval", "2m"], "invalid value '2m' for --interval"),
            (["candles", "BTC", "-e", "bithumb", "--chart", "-f", "json"], "--chart draws on the terminal"),
            (["candles", "BTC/USD", "-e", "bithumb"], "bithumb does not quote in USD"),
            (["candles", "../x", "-e", "bithumb"], "invalid symbol '../x'"),
            (["candles", "BTC", "--exchnage", "bithumb"], "did you mean '--exchange'?"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(arguments, http: client, registry: extendedRegistry())
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
        #expect(client.requests.isEmpty)
    }

    @Test(
        "Bithumb's 5500 for an unlisted coin is 'not listed' on every command, naming the market, code and message",
        arguments: [["candles", "NOPE"], ["book", "NOPE"], ["trades", "NOPE"], ["candles", "ETC/BTC"]])
    func venueError(arguments: [String]) async throws {
        let run = await runCLI(arguments + ["-e", "bithumb", "--offline", "-f", "json"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        let market = arguments[1].contains("/") ? arguments[1] : arguments[1] + "/KRW"
        #expect(
            run.errorLines.last
                == "agg: bithumb: \(market) is not listed (error 5500: 잘못된 코인명입니다. [English: invalid coin name])")
    }
}

/// The chart's fixed height, as the command draws it.
enum CandlesChartShape {
    static let height = 12
}

@Suite("agg trades")
struct TradesCommandTests {
    @Test("JSON: newest first, KST wall-clock converted to UTC, ask is a sell")
    func json() async throws {
        let client = try recordedBithumb()
        let run = await runCLI(["trades", "BTC", "--exchange", "bithumb", "--limit", "2", "-f", "json"], http: client)
        #expect(run.status == 0)
        #expect(client.requests.map(\.url) == ["https://api.bithumb.com/public/transaction_history/BTC_KRW?count=2"])
        #expect(
            run.output == """
                {"exchange":"bithumb","symbol":"BTC/KRW","trades":[\
                {"time":"2024-08-08T08:14:33.000Z","side":"sell","price":"80630000","amount":"0.0021","cost":"169323"},\
                {"time":"2024-08-08T08:14:26.000Z","side":"sell","price":"80640000","amount":"0.34767815",\
                "cost":"28036766"}]}

                """)
    }

    @Test("bid is a buy; the first recorded trade is 17:12:20 KST, 08:12:20 UTC")
    func oldest() async throws {
        let run = await runCLI(["trades", "BTC", "-e", "bithumb", "--offline", "-f", "json"])
        let trades = try run.json()["trades"].elements()
        #expect(trades.count == 20)
        let oldest = try #require(trades.last)
        #expect(try oldest["time"].string() == "2024-08-08T08:12:20.000Z")
        #expect(try oldest["side"].string() == "buy")
        #expect(try oldest["cost"].string() == "15922979")
    }

    @Test("the table groups prices and rounds cost to whole won")
    func table() async throws {
        let run = await runCLI(["trades", "BTC", "-e", "bithumb", "-n", "2", "--offline", "-f", "table"])
        #expect(
            run.output == """
                BTC/KRW on bithumb · 2 latest trades
                TIME (UTC)           SIDE       PRICE      AMOUNT        COST
                2024-08-08 08:14:33  sell  80,630,000      0.0021     169,323
                2024-08-08 08:14:26  sell  80,640,000  0.34767815  28,036,766

                """)
    }

    @Test(
        "--limit must be within the venue's range",
        arguments: [("0", false), ("101", false), ("-3", false), ("1.5", false), ("1", true), ("100", true)])
    func limits(text: String, accepted: Bool) async throws {
        let run = await runCLI(["trades", "BTC", "-e", "bithumb", "--limit", text, "--offline", "-f", "json"])
        #expect(run.status == (accepted ? 0 : 64))
        if !accepted { #expect(run.error.contains("from 1 to 100 for bithumb")) }
    }

    @Test("a venue without trades is named in the usage error")
    func unsupported() async throws {
        let run = await runCLI(["trades", "BTC", "-e", "testbare"], registry: extendedRegistry())
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: testbare does not provide trades; venues with trades: bithumb"])
    }
}

@Suite("agg book")
struct BookCommandTests {
    @Test("JSON: bids best first, asks best first, exact strings, the venue's timestamp")
    func json() async throws {
        let client = try recordedBithumb()
        let run = await runCLI(["book", "BTC", "--exchange", "bithumb", "--depth", "2", "-f", "json"], http: client)
        #expect(run.status == 0)
        #expect(client.requests.map(\.url) == ["https://api.bithumb.com/public/orderbook/BTC_KRW?count=2"])
        #expect(
            run.output == """
                {"exchange":"bithumb","symbol":"BTC/KRW","timestamp":"2024-08-08T08:12:16.112Z",\
                "bids":[{"price":"80629000","amount":"0.0123"},{"price":"80628000","amount":"0.0494"}],\
                "asks":[{"price":"80630000","amount":"0.0456"},{"price":"80631000","amount":"0.0675"}]}

                """)
    }

    @Test("the table puts asks above bids with the spread between the best prices")
    func table() async throws {
        let run = await runCLI(["book", "BTC", "-e", "bithumb", "-d", "2", "--offline", "-f", "table"])
        #expect(
            run.output == """
                BTC/KRW on bithumb · 2 asks, 2 bids · 2024-08-08 08:12:16 UTC
                SIDE         PRICE   AMOUNT   TOTAL  VALUE (KRW)
                ask     80,631,000   0.0675  0.1131    5,442,593
                ask     80,630,000   0.0456  0.0456    3,676,728
                spread       1,000  0.0012%
                bid     80,629,000   0.0123  0.0123      991,737
                bid     80,628,000   0.0494  0.0617    3,983,023

                """)
    }

    @Test("CSV lists bids then asks")
    func csv() async throws {
        let run = await runCLI(["book", "BTC", "-e", "bithumb", "-d", "1", "--offline", "-f", "csv"])
        #expect(run.output == "side,price,amount\nbid,80629000,0.0123\nask,80630000,0.0456\n")
    }

    @Test("--depth must be 1 to 30 for Bithumb", arguments: ["0", "31", "x", ""])
    func depth(text: String) async throws {
        let run = await runCLI(["book", "BTC", "-e", "bithumb", "--depth", text])
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: invalid --depth '\(text)': expected a whole number from 1 to 30 for bithumb"])
    }

    @Test("the config file's first venue with an order book is the default")
    func configDefault() async throws {
        let path = try configFile(#"{"exchanges":["testbare","bithumb"]}"#)
        let run = await runCLI(
            ["book", "BTC", "-d", "1", "--offline", "-f", "json"], environment: ["AGG_CONFIG": path],
            registry: extendedRegistry())
        #expect(run.status == 0)
        #expect(try run.json()["exchange"].string() == "bithumb")
    }
}

@Suite("Offline answers only what was recorded")
struct UnrecordedOfflineTests {
    @Test(
        "an interval with no recording says so instead of showing other bars",
        arguments: [
            ("bithumb", "5m", "/public/candlestick/BTC_KRW/5m"),
            ("upbit", "5m", "/v1/candles/minutes/5?market=KRW-BTC&count=60"),
        ])
    func unrecordedInterval(venue: String, interval: String, path: String) async {
        let run = await runCLI(["candles", "BTC", "-e", venue, "-i", interval, "--offline", "-f", "json"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errorLines.last == "agg: offline data: no recorded \(venue) response for \(path)")
    }
}
