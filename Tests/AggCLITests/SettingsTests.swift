import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions
@testable import AggServe
@testable import AggServices

/// One setting's four sources, each set to a value the next one does not have, and what each
/// resolves to (as `agg config show` prints it).
struct SettingRow: Sendable, CustomTestStringConvertible {
    var setting: any SettingDescription
    var flag: [String]
    /// The variable's text; `nil` for a setting without one.
    var environment: String?
    /// The file's JSON for the key; `nil` for a setting the file does not hold.
    var file: String?
    /// What the flag, the variable, the file and the built-in default resolve to.
    var expected: (flag: String, environment: String?, file: String?, builtIn: String)

    var testDescription: String { setting.flagName }
}

@Suite("settings")
struct SettingsTests {
    static let registry = testRegistry()

    static let rows: [SettingRow] = [
        SettingRow(
            setting: Settings.exchanges, flag: ["-e", "upbit"], environment: "binance, upbit", file: #"["coinbase"]"#,
            expected: (
                #"["upbit"]"#, #"["binance","upbit"]"#, #"["coinbase"]"#,
                #"["binance","bithumb","coinbase","exchangerate","upbit"]"#
            )),
        SettingRow(
            setting: Settings.quote, flag: ["-q", "usdt"], environment: "btc", file: #""eth""#,
            expected: (#""USDT""#, #""BTC""#, #""ETH""#, "null")),
        SettingRow(
            setting: Settings.palette, flag: ["--palette", "KR"], environment: "standard", file: #""kr""#,
            expected: (#""kr""#, #""standard""#, #""kr""#, #""standard""#)),
        SettingRow(
            setting: Settings.timeout, flag: ["--timeout", "3"], environment: "4s", file: #""1m""#,
            expected: ("3", "4", "60", "10")),
        SettingRow(
            setting: Settings.format, flag: ["-f", "csv"], environment: "JSON", file: #""table""#,
            expected: (#""csv""#, #""json""#, #""table""#, "null")),
        SettingRow(
            setting: Settings.maxStale, flag: ["--max-stale", "1h"], environment: "30s", file: "120",
            expected: ("3600", "30", "120", "600")),
        SettingRow(
            setting: Settings.staleAfter, flag: ["--stale-after", "1m"], environment: "10s", file: #""2m""#,
            expected: ("60", "10", "120", "30")),
        SettingRow(
            setting: Settings.store, flag: ["--store", "sqlite:/tmp/a.sqlite"],
            environment: "postgres://agg:hunter2-secret@db/agg", file: #""/tmp/c.sqlite""#,
            expected: (#""sqlite:/tmp/a.sqlite""#, #""postgres://agg:***@db/agg""#, #""sqlite:/tmp/c.sqlite""#, "null")),
        SettingRow(
            setting: Settings.notify, flag: ["--notify", "https://h.example/path-secret"], environment: nil,
            file: #"["telegram://5", "discord://7"]"#,
            expected: (#"["https://h.example/***"]"#, nil, #"["telegram://5","discord://7"]"#, "[]")),
        SettingRow(
            setting: Settings.notifySecretFile, flag: ["--notify-secret-file", "/k"], environment: nil,
            file: #""/f""#, expected: (#""/k""#, nil, #""/f""#, "null")),
        SettingRow(
            setting: Settings.offline, flag: ["--offline"], environment: "yes", file: nil,
            expected: ("true", "true", nil, "false")),
        SettingRow(
            setting: CompareCommand.currency, flag: ["--in", "usd"], environment: nil, file: nil,
            expected: (#""USD""#, nil, nil, #""KRW""#)),
    ]

    /// `arguments` parsed by a command that takes `setting` alone.
    static func parse(_ arguments: [String], _ setting: any SettingDescription) throws -> ParsedArguments {
        try ArgumentParser.parse(
            arguments,
            spec: CommandSpec(
                name: "t", summary: "", arguments: "", options: [setting], positionals: (0, 0), examples: []))
    }

    @Test("every setting: the flag over the variable over the file over the built-in default", arguments: rows)
    func precedence(row: SettingRow) throws {
        let setting = row.setting
        var configuration = Configuration.none
        if let key = setting.key, let file = row.file {
            configuration = try ConfigurationLoader.parse(
                Array("{\"\(key)\": \(file)}".utf8), path: "/c.json", registry: Self.registry)
        }
        let environment = setting.variable.flatMap { name in row.environment.map { [name: $0] } } ?? [:]
        let flagged = try Self.parse(row.flag, setting)
        func resolved(_ arguments: ParsedArguments, _ environment: [String: String], _ configuration: Configuration)
            -> (String, SettingSource)
        {
            let resolver = SettingResolver(
                arguments: arguments, environment: environment, configuration: configuration, registry: Self.registry)
            return (setting.effectiveJSON(resolver).serialized(), setting.source(resolver))
        }
        #expect(resolved(flagged, environment, configuration) == (row.expected.flag, .flag))
        if let expected = row.expected.environment {
            #expect(resolved(ParsedArguments(), environment, configuration) == (expected, .environment))
        }
        if let expected = row.expected.file {
            #expect(resolved(ParsedArguments(), [:], configuration) == (expected, .file))
        }
        #expect(resolved(ParsedArguments(), [:], .none) == (row.expected.builtIn, .builtIn))
        // Each declared source is one the table exercises.
        #expect((setting.variable != nil) == (row.environment != nil))
        #expect((setting.key != nil) == (row.file != nil))
    }

    @Test("a command reads a setting from the variable over the file, and from the flag over both")
    func commandPrecedence() async throws {
        let path = try configFile(#"{"format":"csv","timeout":"1s"}"#)
        let quote = ["quote", "BTC", "-e", "bithumb", "--offline"]
        let fromFile = await runBithumbCLI(quote, environment: ["AGG_CONFIG": path])
        #expect(fromFile.status == 0)
        #expect(fromFile.output.hasPrefix("exchange,symbol,"))
        let fromVariable = await runBithumbCLI(quote, environment: ["AGG_CONFIG": path, "AGG_FORMAT": "json"])
        #expect(fromVariable.output.hasPrefix("{\"quotes\""))
        let fromFlag = await runBithumbCLI(
            quote + ["-f", "csv"], environment: ["AGG_CONFIG": path, "AGG_FORMAT": "json"])
        #expect(fromFlag.output.hasPrefix("exchange,symbol,"))
        // The one resolver serves every command: favorites took no format from the file before.
        let favorites = await runBithumbCLI(["favorites", "list"], environment: ["AGG_FORMAT": "csv"])
        #expect(favorites.status == 0)
        #expect(favorites.output.hasPrefix("kind,"))
    }

    @Test("the table covers every setting")
    func everySetting() {
        let covered = Set(Self.rows.map(\.setting.flagName))
        #expect(Settings.all.map(\.flagName).filter { !covered.contains($0) } == [])
    }

    /// A text given to a setting, and what every source makes of it: the value, or the flag's
    /// message (exit 64) and the file's and the variable's problem (exit 78), which name the
    /// source and otherwise say the same.
    struct GrammarRow: Sendable, CustomTestStringConvertible {
        var setting: any SettingDescription
        var text: String
        /// A command that takes the flag.
        var command = ["quote", "BTC", "--offline"]
        /// The value as `agg config show` prints it, or `nil` when refused.
        var value: String?
        var flagError: String?
        var problem: String?

        var testDescription: String { "\(setting.flagName) \(text)" }
    }

    static let timeoutWords = "a number of seconds above 0 and at most 600, above 0s to 10m"
    static let grammar: [GrammarRow] = [
        GrammarRow(setting: Settings.timeout, text: "10s", value: "10"),
        GrammarRow(setting: Settings.timeout, text: "2.5", value: "2.5"),
        GrammarRow(setting: Settings.timeout, text: "10", value: "10"),
        GrammarRow(
            setting: Settings.timeout, text: "0", flagError: "invalid --timeout '0': expected \(timeoutWords)",
            problem: "invalid value '0': expected \(timeoutWords)"),
        GrammarRow(
            setting: Settings.timeout, text: "1e3", flagError: "invalid --timeout '1e3': expected \(timeoutWords)",
            problem: "invalid value '1e3': expected \(timeoutWords)"),
        GrammarRow(setting: Settings.maxStale, text: "10m", value: "600"),
        GrammarRow(
            setting: Settings.maxStale, text: "5x",
            flagError: "invalid --max-stale '5x': expected seconds (600) or a duration such as 30s, 10m or 1h",
            problem: "invalid value '5x': expected seconds (600) or a duration such as 30s, 10m or 1h"),
        GrammarRow(setting: Settings.palette, text: "KR", value: #""kr""#),
        GrammarRow(
            setting: Settings.palette, text: "blue",
            flagError: "invalid value 'blue' for --palette; expected one of: standard, kr",
            problem: "invalid value 'blue'; expected one of: standard, kr"),
        GrammarRow(
            setting: Settings.format, text: "xml",
            flagError: "invalid value 'xml' for --format; expected one of: table, json, csv",
            problem: "invalid value 'xml'; expected one of: table, json, csv"),
        GrammarRow(setting: Settings.quote, text: "krw", value: #""KRW""#),
        GrammarRow(
            setting: Settings.quote, text: "K-RW",
            flagError: "invalid symbol 'K-RW': codes hold only letters A-Z and digits 0-9",
            problem: "invalid symbol 'K-RW': codes hold only letters A-Z and digits 0-9"),
        GrammarRow(
            setting: Settings.store, text: "mysql://u@h/db", command: ["history", "BTC"],
            flagError: "--store does not know the scheme 'mysql://'; use postgres://user@host:5432/db or sqlite:PATH",
            problem: "--store does not know the scheme 'mysql://'; use postgres://user@host:5432/db or sqlite:PATH"),
    ]

    @Test(
        "the file and the variable take a setting's value in the flag's grammar, and refuse what it refuses in its words",
        arguments: grammar)
    func grammarParity(row: GrammarRow) async throws {
        let key = try #require(row.setting.key)
        let variable = try #require(row.setting.variable)
        let json = JSONValue.string(row.text).serialized()
        let path = try configFile("{\"\(key)\": \(json)}")
        let fromFile = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        let fromEnvironment = await runBithumbCLI(["config", "show"], environment: [variable: row.text])
        // A command that takes the flag; nothing is asked before the flag is refused.
        let fromFlag = await runBithumbCLI(row.command + [row.setting.flagName, row.text])
        if let value = row.value {
            #expect(fromFile.status == 0)
            #expect(fromEnvironment.status == 0)
            #expect(try fromFile.json()[key].value?.serialized() == value)
            #expect(try fromEnvironment.json()[key].value?.serialized() == value)
            let parsed = try Self.parse([row.setting.flagName, row.text], row.setting)
            let resolver = SettingResolver(environment: [:], configuration: .none, registry: Self.registry)
            var flagged = resolver
            flagged.arguments = parsed
            #expect(row.setting.effectiveJSON(flagged).serialized() == value)
        } else {
            #expect(fromFlag.status == 64)
            #expect(fromFlag.errorLines == ["agg: \(row.flagError ?? "")"])
            #expect(fromFile.status == 78)
            #expect(fromFile.errorLines == ["agg: config file \(path): $.\(key): \(row.problem ?? "")"])
            #expect(fromEnvironment.status == 78)
            #expect(fromEnvironment.errorLines == ["agg: environment variable \(variable): \(row.problem ?? "")"])
        }
    }

    @Test("a list setting: the file's array and the variable's commas, each venue checked, each once")
    func lists() async throws {
        let path = try configFile(#"{"exchanges": ["bithumb", "BITHUMB"]}"#)
        let show = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        #expect(try show.json()["exchanges"].value?.serialized() == #"["bithumb"]"#)
        let unknown = await runBithumbCLI(["config", "show"], environment: ["AGG_EXCHANGES": "bithumb,nope"])
        #expect(unknown.status == 78)
        #expect(
            unknown.errorLines == ["agg: environment variable AGG_EXCHANGES: unknown exchange 'nope'; known: bithumb"])
        let empty = await runBithumbCLI(["config", "show"], environment: ["AGG_EXCHANGES": "bithumb,"])
        #expect(
            empty.errorLines == [
                "agg: environment variable AGG_EXCHANGES: invalid value 'bithumb,': expected one or more venue ids, such as bithumb,upbit"
            ])
    }

    /// The end of the help of an option a setting declares: its default, and the variable and
    /// the config key that may set it.
    static func generatedEnd(_ spec: OptionSpec, variable: String? = nil, key: String? = nil) -> String? {
        guard let text = spec.defaultText else { return nil }
        let sources = [variable, key.map { "the config file's \($0)" }].compactMap { $0 }
        return " (default: \(text)" + (sources.isEmpty ? "" : "; also " + sources.joined(separator: " or ")) + ")."
    }

    @Test("help's default of every setting is generated from its declaration")
    func generatedDefaults() throws {
        for setting in Settings.all where !setting.spec.isFlag {
            let end = try #require(Self.generatedEnd(setting.spec, variable: setting.variable, key: setting.key))
            #expect(setting.spec.defaultText == setting.builtInText)
            #expect(setting.spec.help == setting.summary + end)
        }
        #expect(
            Settings.timeout.spec.help
                == "Give up on a venue after this long, such as 10s or 1m (default: 10s; also AGG_TIMEOUT or the config file's timeout)."
        )
        #expect(CompareCommand.currency.spec.help == "Convert into this currency (default: KRW).")
        #expect(PremiumCommand.currency.spec.help == "The local currency (default: KRW).")
    }

    @Test("no option of any command states a default by hand: each is declared by a setting, which writes it")
    func noDefaultByHand() {
        for command in CLI.commands {
            for option in command.spec.options {
                let end = Self.generatedEnd(option)
                let body =
                    end.map { option.help.hasSuffix($0) ? String(option.help.dropLast($0.count)) : "" } ?? option.help
                #expect(
                    !body.lowercased().contains("default"),
                    "agg \(command.spec.name) --\(option.name) states a default by hand: \(option.help)")
            }
        }
    }

    @Test("a secret never shows: config show, the help and an error keep a store's password out")
    func secrets() async throws {
        let secret = "hunter2-secret"
        let path = try configFile(#"{"store": "postgres://agg:\#(secret)@db:5432/agg"}"#)
        let show = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        #expect(show.status == 0)
        #expect(try show.json()["store"].string() == "postgres://agg:***@db:5432/agg")
        #expect(!show.output.contains(secret))
        let fromEnvironment = await runBithumbCLI(
            ["config", "show"], environment: ["AGG_STORE": "postgres://agg:\(secret)@db:5432/agg"])
        #expect(try fromEnvironment.json()["store"].string() == "postgres://agg:***@db:5432/agg")
        let badFile = try configFile(#"{"store": "postgres://agg:\#(secret)@db:5432/a gg"}"#)
        let refused = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": badFile])
        #expect(refused.status == 78)
        #expect(
            refused.errorLines == [
                "agg: config file \(badFile): $.store: the store URL postgres://agg:***@db:5432/a gg holds spaces or control characters; percent-encode them"
            ])
        let badVariable = await runBithumbCLI(
            ["config", "show"], environment: ["AGG_STORE": "postgres://agg:\(secret)@db:5432/a gg"])
        #expect(badVariable.status == 78)
        #expect(
            badVariable.errorLines == [
                "agg: environment variable AGG_STORE: the store URL postgres://agg:***@db:5432/a gg holds spaces or control characters; percent-encode them"
            ])
        #expect(Settings.store.parser.refusal("postgres://agg:\(secret)@db", secret: true).contains(secret) == false)
        let help = await runBithumbCLI(["record", "--help"])
        #expect(!help.output.contains(secret))
        // A token near-miss is still a secret: serve's --token refuses it without repeating it.
        let token = await runBithumbCLI(["serve", "--token", "short \(secret)"])
        #expect(token.status == 64)
        #expect(token.errorLines == ["agg: invalid --token: expected \(ServeToken.expected) (the value is not shown)"])
    }

    @Test("docs/configuration.md's table of settings is the declarations' (Tools/update-docs.sh regenerates it)")
    func docsTable() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/configuration.md")
        let committed = try String(contentsOf: file, encoding: .utf8)
        let generated = try #require(SettingsTable.replacing(in: committed), "no settings table markers")
        if ProcessInfo.processInfo.environment["AGG_UPDATE_DOCS"] == "1" {
            try generated.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(committed == generated, "docs/configuration.md's settings table is stale: run Tools/update-docs.sh")
        #expect(SettingsTable.markdown.contains("| `--timeout` | `timeout` | `AGG_TIMEOUT` | 10s |"))
    }
}
