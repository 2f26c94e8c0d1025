import AggCore
import AggJSON
import AggTestKit
import Bithumb
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions
@testable import AggServices

/// Every new command, with arguments that answer offline.
private let offlineRuns: [[String]] = [
    ["search", "ET", "-e", "bithumb", "-q", "KRW"],
    ["candles", "BTC", "-e", "bithumb", "-n", "5"],
    ["candles", "BTC", "-e", "bithumb", "-n", "30", "--chart"],
    ["trades", "BTC", "-e", "bithumb", "-n", "5"],
    ["book", "BTC", "-e", "bithumb", "-d", "5"],
    ["watch", "BTC", "ETH", "-e", "bithumb", "-c", "1"],
    ["quote", "BTC", "ETH", "-e", "bithumb"],
]

@Suite("colour, palette and help across commands")
struct CLIBehaviourTests {
    @Test("no escape codes when colour is off: --no-color on a terminal, or a pipe", arguments: offlineRuns)
    func noColour(arguments: [String]) async throws {
        let flagged = await runCLI(arguments + ["--offline", "-f", "table", "--no-color"], terminal: true)
        #expect(flagged.status == 0)
        // On a terminal, watch moves the cursor (ESC [ ... A/J, ?25l/h); colour codes end in m.
        #expect(flagged.output.range(of: "\u{1B}\\[[0-9;]*m", options: .regularExpression) == nil)
        let piped = await runCLI(arguments + ["--offline", "-f", "table"])
        #expect(piped.status == 0)
        #expect(!piped.output.contains("\u{1B}["))
    }

    @Test(
        "NO_COLOR, TERM=dumb and --color never turn colour off on a terminal; TERM=dumb also stops redrawing",
        arguments: [
            (["--color", "never"], [String: String]()), ([], ["NO_COLOR": "1"]), ([], ["TERM": "dumb"]),
        ])
    func colourOff(extra: [String], environment: [String: String]) async throws {
        for arguments in [offlineRuns[2], offlineRuns[5]] {
            let run = await runCLI(
                arguments + ["--offline", "-f", "table"] + extra, environment: environment, terminal: true)
            #expect(run.status == 0)
            #expect(run.output.range(of: "\u{1B}\\[[0-9;]*m", options: .regularExpression) == nil)
            if environment["TERM"] == "dumb" { #expect(!run.output.contains("\u{1B}[")) }
        }
    }

    @Test("--color always colours even a pipe", arguments: offlineRuns)
    func forcedColour(arguments: [String]) async throws {
        let run = await runCLI(arguments + ["--offline", "-f", "table", "--color", "always"])
        #expect(run.status == 0)
        #expect(run.output.contains("\u{1B}["))
    }

    @Test("the kr palette paints up red (31) and down blue (34); arrows stay either way")
    func koreanPalette() async throws {
        let trades = await runCLI(
            [
                "trades", "BTC", "-e", "bithumb", "-n", "5", "--offline", "-f", "table", "--color", "always",
                "--palette", "kr",
            ])
        #expect(trades.output.contains("\u{1B}[31mbuy\u{1B}[0m"))
        #expect(trades.output.contains("\u{1B}[34msell\u{1B}[0m"))
        let book = await runCLI(
            [
                "book", "BTC", "-e", "bithumb", "-d", "1", "--offline", "-f", "table", "--color", "always", "--palette",
                "kr",
            ])
        #expect(book.output.contains("\u{1B}[34mask\u{1B}[0m"))
        #expect(book.output.contains("\u{1B}[31mbid\u{1B}[0m"))
        let chart = await runCLI(
            [
                "candles", "BTC", "-e", "bithumb", "-n", "30", "--chart", "--offline", "--color", "always", "--palette",
                "kr",
            ])
        #expect(chart.output.contains("\u{1B}[31m▲ "))
        let plain = await runCLI([
            "candles", "BTC", "-e", "bithumb", "-n", "30", "--chart", "--offline", "--palette", "kr",
        ])
        #expect(plain.output.contains("▲ 1,"))
        let standard = await runCLI(
            ["trades", "BTC", "-e", "bithumb", "-n", "5", "--offline", "-f", "table", "--color", "always"])
        #expect(standard.output.contains("\u{1B}[32mbuy\u{1B}[0m"))
        #expect(standard.output.contains("\u{1B}[31msell\u{1B}[0m"))
    }

    @Test("tables fit a narrow terminal by dropping low-priority columns")
    func narrow() async throws {
        let run = await runCLI(["book", "BTC", "-e", "bithumb", "-d", "3", "--offline", "-f", "table"], width: 36)
        let lines = run.output.split(separator: "\n").dropFirst()
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 36 })
        #expect(lines.first == "SIDE         PRICE   AMOUNT   TOTAL")
    }

    @Test("every command has --help with usage and an example", arguments: CLI.commands.map { $0.spec.name })
    func help(name: String) async throws {
        let run = await runCLI([name, "--help"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("USAGE: agg \(name)"))
        #expect(run.output.contains("EXAMPLES:\n  agg \(name)"))
    }

    @Test(
        "a mistyped flag gets a suggestion in every command",
        arguments: [
            ("search", "--qoute", "--quote"), ("candles", "--intreval", "--interval"), ("trades", "--limt", "--limit"),
            ("book", "--dpeth", "--depth"), ("watch", "--cuont", "--count"), ("quote", "--exchnage", "--exchange"),
            ("candles", "--chrat", "--chart"), ("book", "--pallete", "--palette"),
        ])
    func suggestion(command: String, typo: String, flag: String) async throws {
        let run = await runCLI([command, "BTC", typo, "x"])
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: unknown option '\(typo)' for 'agg \(command)'; did you mean '\(flag)'?"])
    }

    @Test(
        "no spinner on a pipe: stderr holds only the offline notice",
        arguments: offlineRuns.filter { !$0.contains("--chart") })
    func quietStderr(arguments: [String]) async throws {
        let run = await runCLI(arguments + ["--offline", "-f", "json"])
        #expect(
            run.errorLines == [
                "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data"
            ])
    }
}

@Suite("progress line")
struct ProgressLineTests {
    private func console(_ sink: BufferSink, terminal: Bool) -> Console {
        Console(standardOutput: BufferSink(), standardError: sink, errorIsTerminal: terminal)
    }

    @Test("on a terminal, a slow request shows a spinner that is erased before the result")
    func slow() async throws {
        let sink = BufferSink()
        let value = try await ProgressLine.during(
            "asking bithumb", console: console(sink, terminal: true), delay: .zero
        ) {
            () async throws(AggError) -> Int in
            // Wait for the first frame (the machine may be busy), at most 10 s.
            for _ in 0..<1000 where !sink.text.contains("⠋") {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return 7
        }
        #expect(value == 7)
        #expect(sink.text.hasPrefix("\r⠋ asking bithumb…"))
        #expect(sink.text.hasSuffix("\r\u{1B}[K"))
    }

    @Test("a fast answer, an error, or stderr not being a terminal: nothing is drawn")
    func quiet() async throws {
        let fast = BufferSink()
        let value = try await ProgressLine.during("x", console: console(fast, terminal: true)) {
            () async throws(AggError) in 1
        }
        #expect(value == 1)
        #expect(fast.text.isEmpty)

        let piped = BufferSink()
        _ = try await ProgressLine.during("x", console: console(piped, terminal: false), delay: .zero) {
            () async throws(AggError) in
            try? await Task.sleep(for: .milliseconds(200))
            return 1
        }
        #expect(piped.text.isEmpty)

        let failing = BufferSink()
        await #expect(throws: AggError.usage("no")) {
            try await ProgressLine.during("x", console: console(failing, terminal: true)) { () async throws(AggError) in
                throw AggError.usage("no")
            }
        }
        #expect(failing.text.isEmpty)
    }
}

@Suite("Help lists the venues from the registry")
struct HelpVenueTests {
    @Test("agg help candles lists each venue with candles, its intervals and its limit")
    func candles() async {
        // The venues these lines were written for; `followsRegistry` shows the list follows it.
        let run = await runCLI(["help", "candles"], registry: fixedRegistry(["bithumb", "upbit"]))
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = lines.firstIndex(of: "VENUES (registered, with candles):")
        #expect(start != nil)
        let section = start.map { Array(lines[($0 + 1)...].prefix { $0.hasPrefix("  ") }) } ?? []
        #expect(section.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["bithumb", "upbit"])
        #expect(section.first == "  bithumb  intervals 1m 3m 5m 10m 30m 1h 6h 12h 24h; --limit up to 1500")
        #expect(section.last?.hasPrefix("  upbit    intervals 1m 3m 5m 10m 30m 1h 24h; --limit up to ") == true)
    }

    @Test("with another registry, the list follows it: it is generated, not written by hand")
    func followsRegistry() async {
        var registry = AdapterRegistry()
        registry.register(BithumbAdapter.self)
        let candles = await runCLI(["candles", "--help"], registry: registry)
        #expect(candles.output.contains("VENUES (registered, with candles):\n  bithumb  intervals"))
        #expect(!candles.output.contains("upbit"))
        let trades = await runCLI(["help", "trades"], registry: registry)
        #expect(trades.output.contains("VENUES (registered, with trades):\n  bithumb  --limit up to 100\n"))
        let book = await runCLI(["help", "book"], registry: registry)
        #expect(book.output.contains("VENUES (registered, with order book):\n  bithumb  --depth up to 30\n"))
    }

    @Test("agg --help names every environment variable the commands' help refers to")
    func environment() async {
        let run = await runCLI(["--help"])
        for name in ["AGG_<ID>_URL", "AGG_OFFLINE=1", "AGG_FIXTURES", "AGG_HOME", "AGG_CONFIG", "NO_COLOR"] {
            #expect(run.output.contains("\n  \(name) "), "\(name)")
        }
    }
}
