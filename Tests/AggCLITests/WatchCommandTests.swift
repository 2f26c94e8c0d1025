import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

@Suite("agg watch")
struct WatchCommandTests {
    @Test("--count 2 off a terminal prints two JSON lines, one interval apart, and exits 0")
    func twoBlocks() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let run = await runCLI(["watch", "BTC", "ETH", "-e", "bithumb", "--interval", "1", "--count", "2", "--offline"])
        let elapsed = clock.now - start
        #expect(run.status == 0)
        #expect(elapsed >= .seconds(1))
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "")
        for line in lines.dropLast() {
            let block = JSONCursor(try JSONParser.parse(String(line)))
            #expect(try block.members().map(\.key) == ["time", "quotes", "errors"])
            #expect(try block["quotes"].elements().map { try $0["symbol"].string() } == ["BTC/KRW", "ETH/KRW"])
            #expect(try block["quotes"][0]["last"].string() == "80630000")
        }
        #expect(!run.output.contains("\u{1B}["))
    }

    @Test("CSV blocks share one header")
    func csvBlocks() async throws {
        let run = await runCLI(
            ["watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "2", "--offline", "-f", "csv"],
            now: QuoteAgeOutputTests.now)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("exchange,symbol,"))
        #expect(lines[1] == lines[2] && lines[1].hasPrefix("bithumb,BTC/KRW,BTC,KRW,80630000,"))
    }

    @Test("on a terminal: cursor hidden, redrawn in place, changes highlighted with ▲, terminal restored")
    func terminal() async throws {
        let client = try recordedBithumb { body, call in
            call == 1
                ? body
                : body.replacingOccurrences(
                    of: "\"closing_price\":\"80630000\"", with: "\"closing_price\":\"80631000\"")
        }
        let run = await runCLI(
            ["watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "2", "--color", "always"], http: client, terminal: true)
        #expect(run.status == 0)
        #expect(client.requests.count == 2)
        #expect(run.output.hasPrefix("\u{1B}[?25l\u{1B}[2mevery 1 s · "))
        #expect(run.output.hasSuffix("\u{1B}[0m\u{1B}[?25h"))
        let parts = run.output.components(separatedBy: "\u{1B}[3A\r\u{1B}[J")
        #expect(parts.count == 2)
        let first = parts[0]
        let second = parts.count == 2 ? parts[1] : ""
        #expect(first.contains("  80,630,000") && !first.contains("\u{1B}[7m"))
        #expect(second.contains("\u{1B}[32m\u{1B}[7m▲ 80,631,000\u{1B}[0m\u{1B}[0m"))
        #expect(run.error.isEmpty)
    }

    @Test("Ctrl-C stops it at once, exit 0, with the terminal restored")
    func interrupt() async throws {
        let (interrupts, continuation) = AsyncStream<Void>.makeStream()
        let client = try recordedBithumb { body, _ in
            continuation.yield()
            return body
        }
        let clock = ContinuousClock()
        let start = clock.now
        let run = await runCLI(
            ["watch", "BTC", "-e", "bithumb", "--interval", "30", "--count", "2"], http: client, terminal: true,
            interrupts: interrupts)
        #expect(clock.now - start < .seconds(10))
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("\u{1B}[?25l"))
        #expect(run.output.hasSuffix("\u{1B}[0m\u{1B}[?25h"))
    }

    @Test("a failing market is reported each refresh and the last refresh's failure exits 1")
    func failure() async throws {
        let run = await runCLI(["watch", "NOPE", "-e", "bithumb", "--count", "1", "--offline", "-f", "json"])
        #expect(run.status == 1)
        #expect(
            run.errorLines.last
                == "agg: bithumb NOPE/KRW: not listed (error 5500: 잘못된 코인명입니다. [English: invalid coin name])")
        #expect(try JSONCursor(try JSONParser.parse(run.output))["errors"][0]["code"].string() == "5500")
    }

    @Test(
        "interval and count are validated against the rate limits before any request",
        arguments: [
            (
                ["watch", "BTC", "-e", "bithumb", "--interval", "0.5"],
                "--interval 0.5 is too short: at least 1 s (the shortest interval agg allows)"
            ),
            (["watch", "BTC", "-e", "bithumb", "--interval", "0"], "at least 1 s"),
            // One number grammar for every option: a sign is not part of it.
            (["watch", "BTC", "-e", "bithumb", "--interval", "-2"], "invalid --interval '-2'"),
            (["watch", "BTC", "-e", "bithumb", "--interval", "0x10"], "invalid --interval '0x10'"),
            (["watch", "BTC", "-e", "bithumb", "--interval", "1e3"], "invalid --interval '1e3'"),
            (["watch", "BTC", "-e", "bithumb", "--interval", "abc"], "invalid --interval 'abc'"),
            (["watch", "BTC", "-e", "bithumb", "--interval", "nan"], "invalid --interval 'nan'"),
            (
                ["watch", "BTC", "ETH", "ETC", "-e", "testnames", "--interval", "1"],
                "--interval 1 is too short: at least 1.5 s (testnames allows 2 requests/s and a refresh makes up to 3)"
            ),
            (["watch", "BTC", "-e", "bithumb", "--count", "0"], "invalid --count '0'"),
            (["watch", "BTC", "-e", "bithumb", "--count", "x"], "invalid --count 'x'"),
            (["watch", "-e", "bithumb"], "'agg watch' needs more arguments"),
            (["watch", "BTC", "--intervall", "2"], "did you mean '--interval'?"),
        ])
    func validation(arguments: [String], message: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(arguments, http: client, registry: extendedRegistry())
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: " + message] || (run.errorLines.count == 1 && run.error.contains(message)))
        #expect(client.requests.isEmpty)
    }
}
