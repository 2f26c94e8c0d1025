import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggOptions

@Suite("config file")
struct ConfigurationTests {
    @Test(
        "the file's location: AGG_CONFIG, then XDG_CONFIG_HOME (absolute only), then HOME",
        arguments: [
            (["AGG_CONFIG": "/etc/agg.json", "XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/etc/agg.json"),
            (["XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/x/agg/config.json"),
            (["XDG_CONFIG_HOME": "relative", "HOME": "/h"], "/h/.config/agg/config.json"),
            (["AGG_CONFIG": "", "HOME": "/h"], "/h/.config/agg/config.json"),
        ])
    func location(environment: [String: String], path: String) {
        #expect(ConfigurationLoader.path(environment: environment) == path)
    }

    @Test("no home and no override: no file, built-in defaults")
    func noHome() async throws {
        #expect(ConfigurationLoader.path(environment: [:]) == nil)
        let run = await runBithumbCLI(["config", "path"])
        #expect(run.status == 64)
        let show = await runBithumbCLI(["config", "show"])
        #expect(show.status == 0)
        #expect(
            show.output == """
                {
                  "path": null,
                  "exchanges": [
                    "bithumb"
                  ],
                  "quote": null,
                  "palette": "standard",
                  "timeout": 10,
                  "baseURLs": {
                    "bithumb": "https://api.bithumb.com"
                  },
                  "format": null,
                  "maxStale": 600,
                  "staleAfter": 30,
                  "store": null,
                  "venueSettings": {
                    "bithumb": {
                      "api": "classic"
                    }
                  },
                  "notify": [],
                  "notifySecretFile": null
                }

                """)
    }

    @Test("config show prints every setting in effect, the environment's URL over the file's")
    func show() async throws {
        let path = try configFile(
            #"{"exchanges":["bithumb"],"quote":"krw","palette":"kr","timeout":2.5,"baseURLs":{"bithumb":"http://127.0.0.1:9/b"},"format":"csv"}"#
        )
        let run = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let json = try run.json()
        #expect(try json["path"].string() == path)
        #expect(try json["quote"].string() == "KRW")
        #expect(try json["palette"].string() == "kr")
        #expect(json["timeout"].value == .number("2.5"))
        #expect(try json["baseURLs"]["bithumb"].string() == "http://127.0.0.1:9/b")
        #expect(try json["format"].string() == "csv")
        let overridden = await runBithumbCLI(
            ["config", "show"], environment: ["AGG_CONFIG": path, "AGG_BITHUMB_URL": "http://127.0.0.1:7/env"])
        #expect(try overridden.json()["baseURLs"]["bithumb"].string() == "http://127.0.0.1:7/env")
        let where_ = await runBithumbCLI(["config", "path"], environment: ["AGG_CONFIG": path])
        #expect(where_.output == path + "\n")
        #expect(where_.error.isEmpty)
    }

    @Test("base URL precedence: AGG_<ID>_URL over the config file over the default")
    func baseURLPrecedence() async throws {
        let path = try configFile(#"{"baseURLs":{"bithumb":"http://127.0.0.1:9/config"}}"#)
        let fromConfig = try recordedBithumbAt("http://127.0.0.1:9/config")
        let run = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb"], environment: ["AGG_CONFIG": path], http: fromConfig)
        #expect(run.status == 0)
        #expect(fromConfig.requests.map(\.url) == ["http://127.0.0.1:9/config/public/ticker/BTC_KRW"])

        let fromEnvironment = try recordedBithumbAt("http://127.0.0.1:9/env")
        let both = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb"],
            environment: ["AGG_CONFIG": path, "AGG_BITHUMB_URL": "http://127.0.0.1:9/env"], http: fromEnvironment)
        #expect(both.status == 0)
        #expect(fromEnvironment.requests.map(\.url) == ["http://127.0.0.1:9/env/public/ticker/BTC_KRW"])

        let exchanges = await runBithumbCLI(["exchanges", "-f", "json"], environment: ["AGG_CONFIG": path])
        #expect(try exchanges.json()["exchanges"][0]["baseURL"].string() == "http://127.0.0.1:9/config")
    }

    @Test("format: the flag over the file over the default (JSON off a terminal)")
    func formatPrecedence() async throws {
        let path = try configFile(#"{"format":"csv"}"#)
        let configured = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline"], environment: ["AGG_CONFIG": path])
        #expect(configured.output.hasPrefix("exchange,symbol,"))
        let flagged = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json"], environment: ["AGG_CONFIG": path])
        #expect(flagged.output.hasPrefix("{\"quotes\""))
        let neither = await runBithumbCLI(["quote", "BTC", "-e", "bithumb", "--offline"])
        #expect(neither.output.hasPrefix("{\"quotes\""))
    }

    @Test("palette: the flag over the file over the standard green/red")
    func palettePrecedence() async throws {
        let path = try configFile(#"{"palette":"kr"}"#)
        let arguments = ["quote", "BTC", "ETH", "-e", "bithumb", "--offline", "-f", "table", "--color", "always"]
        let configured = await runBithumbCLI(arguments, environment: ["AGG_CONFIG": path])
        #expect(configured.output.contains("\u{1B}[34m▼ -0.54%\u{1B}[0m"))
        #expect(configured.output.contains("\u{1B}[31m▲ +0.47%\u{1B}[0m"))
        let flagged = await runBithumbCLI(arguments + ["--palette", "standard"], environment: ["AGG_CONFIG": path])
        #expect(flagged.output.contains("\u{1B}[31m▼ -0.54%\u{1B}[0m"))
        #expect(flagged.output.contains("\u{1B}[32m▲ +0.47%\u{1B}[0m"))
        let neither = await runBithumbCLI(arguments)
        #expect(neither.output.contains("\u{1B}[32m▲ +0.47%\u{1B}[0m"))
    }

    @Test("exchanges and quote: the file's defaults, overridden by flags")
    func exchangesAndQuote() async throws {
        let path = try configFile(#"{"exchanges":["bithumb"],"quote":"BTC"}"#)
        let configured = await runCLI(
            ["quote", "ETH", "--offline", "-f", "json"], environment: ["AGG_CONFIG": path],
            registry: extendedRegistry())
        #expect(try configured.json()["quotes"].elements().map { try $0["symbol"].string() } == ["ETH/BTC"])
        #expect(try configured.json()["quotes"][0]["last"].string() == "0.04224")
        let flagged = await runCLI(
            ["quote", "ETH", "-e", "testnames", "-q", "KRW", "-f", "json"], environment: ["AGG_CONFIG": path],
            registry: extendedRegistry())
        #expect(try flagged.json()["quotes"][0]["exchange"].string() == "testnames")
        #expect(try flagged.json()["quotes"][0]["symbol"].string() == "ETH/KRW")
        let neither = await runCLI(["quote", "ETH", "-f", "json"], registry: extendedRegistry())
        #expect(neither.status == 1)
        #expect(
            try neither.json()["quotes"].elements().map { try $0["exchange"].string() } == ["testbare", "testnames"])
    }

    @Test("unknown keys: one warning line naming them, and the command still runs")
    func unknownKeys() async throws {
        let path = try configFile(#"{"exchange":["bithumb"],"colour":"always","quote":"KRW"}"#)
        let run = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json"], environment: ["AGG_CONFIG": path])
        #expect(run.status == 0)
        #expect(
            run.errorLines.first
                == "agg: warning: config file \(path): ignoring unknown keys 'exchange' (did you mean 'exchanges'?), 'colour'"
        )
        #expect(run.errorLines.count == 2)
    }

    @Test(
        "a malformed file stops every command with exit 78, naming the file and the problem",
        arguments: [
            (#"{"timeout": 10,}"#, "invalid JSON at byte 15: "),
            (
                #"{"timeout": "10x"}"#,
                "$.timeout: invalid value '10x': expected a number of seconds above 0 and at most 600"
            ),
            (#"{"timeout": 0}"#, "$.timeout: invalid value '0': expected a number of seconds"),
            (#"{"timeout": true}"#, "$.timeout: expected a string or a number, found a boolean"),
            (#"{"exchanges": "bithumb"}"#, "$.exchanges: expected an array, found a string"),
            (#"{"exchanges": ["bithumb", 3]}"#, "$.exchanges[1]: expected a string, found a number"),
            (#"{"exchanges": ["nope"]}"#, "$.exchanges[0]: unknown exchange 'nope'; known: bithumb"),
            (#"{"exchanges": []}"#, "$.exchanges: name at least one exchange"),
            (#"{"palette": "blue"}"#, "$.palette: invalid value 'blue'; expected one of: standard, kr"),
            (#"{"format": "xml"}"#, "$.format: invalid value 'xml'; expected one of: table, json, csv"),
            (#"{"quote": "K-RW"}"#, "$.quote: invalid symbol 'K-RW': codes hold only letters A-Z and digits 0-9"),
            (
                #"{"baseURLs": {"bithumb": "ftp://x"}}"#,
                "$.baseURLs.bithumb: expected an http:// or https:// URL with a host and no user info, query or fragment"
            ),
            (#"{"baseURLs": {"bithumb": "http://"}}"#, "$.baseURLs.bithumb: expected \(BaseURL.requirement)"),
            (#"{"baseURLs": {"bithumb": "https://h/p?q=1"}}"#, "$.baseURLs.bithumb: expected \(BaseURL.requirement)"),
            (#"{"baseURLs": {"bithumb": "https://u@h/p"}}"#, "$.baseURLs.bithumb: expected \(BaseURL.requirement)"),
            (#"{"baseURLs": ["http://x"]}"#, "$.baseURLs: expected an object, found an array"),
            (
                #"{"venueSettings": {"bithumb": {"api": "v2"}}}"#,
                "$.venueSettings.bithumb.api: 'v2' is not one of: classic, v1"
            ),
            (
                #"{"venueSettings": {"bithumb": {"API": "v1"}}}"#,
                "$.venueSettings.bithumb.API: bithumb has no setting 'API'; its settings: api"
            ),
            (
                #"{"venueSettings": {"bithumb": {"api": 1}}}"#,
                "$.venueSettings.bithumb.api: expected a string, found a number"
            ),
            (#"{"venueSettings": {"bithumb": "v1"}}"#, "$.venueSettings.bithumb: expected an object, found a string"),
            (#"["bithumb"]"#, "$: expected an object, found an array"),
            ("", "invalid JSON at byte 0"),
        ])
    func malformed(text: String, problem: String) async throws {
        let path = try configFile(text)
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb"], environment: ["AGG_CONFIG": path], http: client)
        #expect(run.status == 78)
        #expect(run.errorLines.count == 1)
        #expect(run.error.hasPrefix("agg: config file \(path): \(problem)"))
        #expect(run.output.isEmpty)
        #expect(client.requests.isEmpty)
    }

    @Test("venueSettings: Bithumb set to its v1 API answers from /v1/*; an unknown venue is a warning")
    func venueSettings() async throws {
        let path = try configFile(#"{"venueSettings":{"bithumb":{"api":"v1"},"nowhere":{"api":"x"}}}"#)
        let show = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        #expect(try show.json()["venueSettings"]["bithumb"]["api"].string() == "v1")
        #expect(
            show.errorLines == [
                "agg: warning: config file \(path): ignoring venueSettings for unknown exchange 'nowhere'"
            ])
        let client = try Fixtures.recordingClient("bithumb", baseURL: "https://api.bithumb.com")
        let run = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb", "-f", "json"], environment: ["AGG_CONFIG": path], http: client)
        #expect(run.status == 0)
        #expect(try run.json()["quotes"][0]["last"].string() == "80630000")
        #expect(client.requests.map(\.url) == ["https://api.bithumb.com/v1/ticker?markets=KRW-BTC"])
    }

    @Test("a file named by AGG_CONFIG must exist; a missing default file is fine")
    func missing() async throws {
        let directory = try temporaryDirectory()
        let named = await runBithumbCLI(
            ["exchanges"], environment: ["AGG_CONFIG": directory.appendingPathComponent("none.json").path])
        #expect(named.status == 78)
        #expect(named.error.contains("cannot read the file named by AGG_CONFIG"))
        let unnamed = await runBithumbCLI(["exchanges", "-f", "json"], environment: ["HOME": directory.path])
        #expect(unnamed.status == 0)
        #expect(unnamed.error.isEmpty)
        let located = await runBithumbCLI(["config", "path"], environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(located.output == directory.appendingPathComponent("agg/config.json").path + "\n")
        #expect(located.errorLines == ["agg: no file there yet; built-in defaults are in effect"])
    }

    @Test("help and version never read the config file")
    func helpIgnoresConfig() async throws {
        let path = try configFile("{")
        #expect(await runBithumbCLI(["--help"], environment: ["AGG_CONFIG": path]).status == 0)
        #expect(await runBithumbCLI(["quote", "--help"], environment: ["AGG_CONFIG": path]).status == 0)
        #expect(await runBithumbCLI(["--version"], environment: ["AGG_CONFIG": path]).status == 0)
    }
}

/// Bithumb's recorded answers served under `base`.
func recordedBithumbAt(_ base: String) throws -> ScriptedHTTPClient {
    let routes = try Fixtures.routes("bithumb")
    return ScriptedHTTPClient { request in
        guard request.url.hasPrefix(base),
            let answer = try routes.answer(path: String(request.url.dropFirst(base.count)), query: "")
        else {
            throw TransportError.connection(url: request.url, detail: "unexpected URL")
        }
        return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body, url: request.url)
    }
}
