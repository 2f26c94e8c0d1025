import AggCore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions

/// The command-line papercuts of issue 10, one test each: help spelled four ways, attached
/// short options, one case rule, empty lists, one meaning per short option, one number grammar,
/// and the config and environment checks.
@Suite("command-line papercuts")
struct CLIPapercutTests {
    @Test("agg help quote, agg --help quote, agg quote --help and agg quote help print the same help")
    func helpSpellings() async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let runs = [
            await runCLI(["help", "quote"], http: client), await runCLI(["--help", "quote"], http: client),
            await runCLI(["quote", "--help"], http: client), await runCLI(["quote", "help"], http: client),
            await runCLI(["-h", "quote"], http: client),
        ]
        for run in runs {
            #expect(run.status == 0)
            #expect(run.output == runs[0].output)
            #expect(run.error.isEmpty)
        }
        #expect(runs[0].output.hasPrefix("USAGE: agg quote SYMBOL... [--exchange ID[,ID...]]"))
        #expect(client.requests.isEmpty)
    }

    @Test("attached short options: -ebithumb -fjson is -e bithumb -f json")
    func attachedShortOptions() async throws {
        let now = QuoteAgeOutputTests.now
        let attached = await runCLI(["quote", "BTC", "-ebithumb", "-fjson", "--offline"], now: now)
        let separate = await runCLI(["quote", "BTC", "-e", "bithumb", "-f", "json", "--offline"], now: now)
        #expect(attached.status == 0)
        #expect(attached.output == separate.output)
        #expect(try attached.json()["quotes"][0]["exchange"].string() == "bithumb")
        let flagWithText = await runCLI(["quote", "BTC", "-abc"])
        #expect(flagWithText.status == 64)
        #expect(flagWithText.errorLines.first?.hasPrefix("agg: unknown option '-abc' for 'agg quote'") == true)
    }

    @Test(
        "every enumerated value is accepted in any case",
        arguments: [
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "JSON"],
            ["quote", "BTC", "-e", "bithumb", "--offline", "--format", "Json", "--color", "NEVER"],
            ["quote", "BTC", "-e", "BITHUMB", "--offline", "-f", "json", "--palette", "KR"],
            ["candles", "BTC", "-e", "bithumb", "-n", "1", "-i", "1M", "--offline", "-f", "json"],
        ])
    func anyCase(arguments: [String]) async throws {
        let run = await runCLI(arguments)
        #expect(run.status == 0)
        #expect(try run.json()["exchange"].isPresent || (try run.json()["quotes"].elements().count == 1))
    }

    @Test(
        "an empty list is a usage error, before any request",
        arguments: [["quote", "BTC", "-e", ",,"], ["quote", "BTC", "--exchange="], ["rates", "--to", ","]])
    func emptyList(arguments: [String]) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(arguments, http: client)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.contains("invalid --") == true)
        #expect(client.requests.isEmpty)
    }

    @Test(
        "an empty item anywhere in a list is a usage error naming the option, before any request",
        arguments: [
            (
                ["quote", "BTC", "-e", "bithumb,,upbit"],
                "agg: invalid --exchange 'bithumb,,upbit': expected one or more venue ids, such as bithumb,upbit"
            ),
            (
                ["quote", "BTC", "-e", "bithumb,"],
                "agg: invalid --exchange 'bithumb,': expected one or more venue ids, such as bithumb,upbit"
            ),
            (
                ["quote", "BTC", "-e", " ,bithumb"],
                "agg: invalid --exchange ' ,bithumb': expected one or more venue ids, such as bithumb,upbit"
            ),
            (["rates", "--to", "KRW,"], "agg: invalid --to 'KRW,': expected currency codes such as USD,JPY"),
            (["rates", "--to", "KRW, ,JPY"], "agg: invalid --to 'KRW, ,JPY': expected currency codes such as USD,JPY"),
        ])
    func emptyItem(arguments: [String], line: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(arguments, http: client)
        #expect(run.status == 64)
        #expect(run.errorLines == [line])
        #expect(client.requests.isEmpty)
    }

    @Test("a list without an empty item still parses, trimmed")
    func listItems() async throws {
        let parser = ValueParser<[String]>.list(of: .venueID, expected: "venue ids")
        #expect(try parser.parse("bithumb, upbit ,binance") == ["bithumb", "upbit", "binance"])
        #expect(try parser.parse("bithumb") == ["bithumb"])
        #expect(try parser.parse("bithumb,,upbit") == nil)
        #expect(try parser.parse("") == nil)
    }

    @Test("a short option means one option in every command (-n is 'at most N' everywhere)")
    func shortOptionsAgree() {
        var meanings: [Character: Set<String>] = [:]
        for command in CLI.commands {
            for option in command.spec.options {
                if let short = option.short { meanings[short, default: []].insert(option.name) }
            }
        }
        for (short, names) in meanings where short != "n" {
            #expect(names.count == 1, "-\(short) means \(names.sorted()) in different commands")
        }
        // -n is "show at most N rows": --limit, and --top on the premium board.
        #expect(meanings["n"] == ["limit", "top"])
        #expect(meanings["i"] == ["interval"])
    }

    @Test(
        "numbers share one grammar: no hex, no exponent, no sign; durations take units wherever seconds are taken",
        arguments: [
            (["quote", "BTC", "-e", "bithumb", "--timeout", "0x10"], "invalid --timeout '0x10'"),
            (["quote", "BTC", "-e", "bithumb", "--timeout", "1e1"], "invalid --timeout '1e1'"),
            (["quote", "BTC", "-e", "bithumb", "--timeout", "inf"], "invalid --timeout 'inf'"),
            (["quote", "BTC", "-e", "bithumb", "--timeout", "11m"], "invalid --timeout '11m'"),
            (["premium", "--top", "0x10"], "invalid --top '0x10'"),
            (["premium", "--top", "+5"], "invalid --top '+5'"),
            (["search", "BTC", "--limit", "0x10"], "invalid --limit '0x10'"),
            (["rates", "--keep", "0x2"], "invalid --keep '0x2'"),
            (["watch", "BTC", "-e", "bithumb", "--count", "0x2"], "invalid --count '0x2'"),
            (["book", "BTC", "-e", "bithumb", "--depth", "0x2"], "invalid --depth '0x2'"),
        ])
    func numberGrammar(arguments: [String], message: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(arguments, http: client)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("agg: " + message) == true)
        #expect(client.requests.isEmpty)
    }

    @Test("durations with units are taken where seconds are: --timeout 1m, --interval 2s, --max-fx-age 1d")
    func durationUnits() async throws {
        let quote = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json", "--timeout", "1m"])
        #expect(quote.status == 0)
        let watch = await runCLI(["watch", "BTC", "-e", "bithumb", "--offline", "-f", "csv", "-i", "1.5s", "-c", "1"])
        #expect(watch.status == 0)
        #expect(watch.output.hasPrefix("exchange,symbol,"))
    }

    @Test("config path works when the config file is malformed; config show does not")
    func configPathWithMalformedFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "agg-papercut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.json").path
        try "{not json".write(toFile: path, atomically: true, encoding: .utf8)
        let located = await runCLI(["config", "path"], environment: ["AGG_CONFIG": path])
        #expect(located.status == 0)
        #expect(located.output == path + "\n")
        let shown = await runCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        #expect(shown.status == 78)
        #expect(shown.error.hasPrefix("agg: config file \(path): "))
    }

    @Test(
        "AGG_<ID>_URL is checked as the config file's base URLs are (exit 78)",
        arguments: [
            "ftp://example.com", "example.com/bithumb", "http://exa mple.com", "http://", "https://", "http:///public",
            "https://h/path?q=1", "https://h/path#top", "https://user:pw@h/path", "https://h:/x", "https://h:99999",
            "http://h/a\tb",
        ])
    func environmentURL(url: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(["quote", "BTC", "-e", "bithumb"], environment: ["AGG_BITHUMB_URL": url], http: client)
        #expect(run.status == 78)
        #expect(
            run.errorLines == [
                "agg: environment variable AGG_BITHUMB_URL: expected an http:// or https:// URL with a host and no"
                    + " user info, query or fragment, got '\(url.replacingOccurrences(of: "\t", with: #"\x09"#))'"
            ])
        #expect(client.requests.isEmpty)
    }
}
