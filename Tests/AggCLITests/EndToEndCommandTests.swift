import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The real `agg` binary, over real libcurl, against a loopback server serving Fixtures/: one
/// run per command added by the cli5 work (search, candles, trades, book, watch, config,
/// completion).
@Suite("agg commands end to end")
struct EndToEndCommandTests {
    /// The server's URLs, a private store, and a config location with no file in it.
    func environment(_ server: FixtureServer?, _ extra: [String: String] = [:]) throws -> [String: String] {
        var environment = server?.environment ?? [:]
        let directory = try temporaryDirectory()
        environment["AGG_HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.path
        environment.merge(extra) { _, new in new }
        return environment
    }

    @Test("search: prices from the ALL tickers that answered; ALL_BTC's 5500 in errors, exit 1")
    func search() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["search", "ETH", "-e", "bithumb", "-f", "json"], environment: try environment(server))
        #expect(run.status == 1)
        #expect(run.error == "agg: bithumb ALL/BTC: error 5500: 입력값을 확인해 주세요. [English: please check the input]\n")
        #expect(
            run.output == """
                {"query":"ETH","results":[\
                {"exchange":"bithumb","symbol":"ETH/KRW","base":"ETH","quote":"KRW","nameKo":null,"nameEn":null,"last":"3406000"}],\
                "errors":[{"exchange":"bithumb","symbol":"ALL/BTC","kind":"venue","code":"5500","message":"입력값을 확인해 주세요."}]}

                """)
        #expect(
            Set(server.requests.map(\.path)) == ["/bithumb/public/ticker/ALL_KRW", "/bithumb/public/ticker/ALL_BTC"])
    }

    @Test("candles: OHLCV in order from Bithumb's close-before-high rows")
    func candles() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["candles", "BTC", "-e", "bithumb", "-n", "1", "-i", "1m", "-f", "json"],
            environment: try environment(server))
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"exchange":"bithumb","symbol":"BTC/KRW","interval":"1m","candles":[\
                {"time":"2024-08-07T07:13:00.000Z","open":"79312000","high":"79351000","low":"79298000",\
                "close":"79335000","volume":"1.53240152"}]}

                """)
        #expect(server.requests.map(\.path) == ["/bithumb/public/candlestick/BTC_KRW/1m"])
    }

    @Test("candles --chart: a chart of the width asked for, no colour in a pipe")
    func chart() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["candles", "BTC", "-e", "bithumb", "-n", "90", "--chart"],
            environment: try environment(server, ["COLUMNS": "50"]))
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 15)
        #expect(lines[1].hasPrefix("79,335,000 ┤"))
        #expect(lines.dropFirst().prefix(12).allSatisfy { $0.count <= 50 })
        #expect(!run.output.contains("\u{1B}"))
    }

    @Test("trades: KST converted to UTC, count passed to the venue")
    func trades() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["trades", "BTC", "-e", "bithumb", "-n", "1", "-f", "csv"], environment: try environment(server))
        #expect(run.status == 0)
        #expect(run.output == "time,side,price,amount,cost\n2024-08-08T08:14:33.000Z,sell,80630000,0.0021,169323\n")
        #expect(server.requests.map(\.target) == ["/bithumb/public/transaction_history/BTC_KRW?count=1"])
    }

    @Test("book: the spread between the best ask and bid")
    func book() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["book", "BTC", "-e", "bithumb", "-d", "1", "-f", "table"], environment: try environment(server))
        #expect(run.status == 0)
        #expect(
            run.output.split(separator: "\n").dropFirst() == [
                "SIDE         PRICE   AMOUNT   TOTAL  VALUE (KRW)",
                "ask     80,630,000   0.0456  0.0456    3,676,728",
                "spread       1,000  0.0012%",
                "bid     80,629,000   0.0123  0.0123      991,737",
            ])
        #expect(server.requests.map(\.target) == ["/bithumb/public/orderbook/BTC_KRW?count=1"])
    }

    @Test("watch --count 2: two JSON lines from two requests, exit 0")
    func watchCount() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "2"], environment: try environment(server))
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("\"last\":\"80630000\"") })
        #expect(server.requests.count == 2)
        #expect(run.seconds >= 1)
    }

    @Test("watch stops cleanly on SIGINT after its first block: exit 0, the block intact")
    func watchInterrupt() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let (process, output, error) = try AggBinary.start(
            ["watch", "BTC", "-e", "bithumb", "-i", "30"], environment: try environment(server))
        let text: String = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let handle = output.fileHandleForReading
                var data = handle.availableData
                process.interrupt()
                data += handle.readDataToEndOfFile()
                _ = error.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix("{\"time\":"))
        #expect(text.hasSuffix("}\n"))
    }

    @Test("config show and a malformed file through the binary")
    func config() async throws {
        let path = try configFile(#"{"palette":"kr","timeout":3}"#)
        let show = try await AggBinary.run(["config", "show"], environment: try environment(nil, ["AGG_CONFIG": path]))
        #expect(show.status == 0)
        #expect(show.output.contains("\"palette\": \"kr\""))
        #expect(show.output.contains("\"timeout\": 3"))
        let broken = try configFile(#"{"palette": kr}"#)
        let run = try await AggBinary.run(
            ["book", "BTC", "-e", "bithumb"], environment: try environment(nil, ["AGG_CONFIG": broken]))
        #expect(run.status == 78)
        #expect(run.errorLines.count == 1)
        #expect(run.error.hasPrefix("agg: config file \(broken): invalid JSON at byte 12"))
    }

    @Test("completion: the binary's bash script parses and names its commands")
    func completion() async throws {
        let run = try await AggBinary.run(["completion", "bash"], environment: try environment(nil))
        #expect(run.status == 0)
        for name in ["quote", "search", "candles", "trades", "book", "watch", "config", "completion", "bithumb"] {
            #expect(run.output.contains(name))
        }
        let file = try temporaryDirectory().appendingPathComponent("agg.bash")
        try Data(run.output.utf8).write(to: file)
        #expect(try await runProcess("/bin/bash", ["-n", file.path]).status == 0)
    }
}
