import AggCore
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions
@testable import AggServe
@testable import AggServices

/// The checkout's root, from this file's path (Tests/AggCLITests/<file>).
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A context on the test registry whose console keeps what is written.
private func context(environment: [String: String] = [:]) -> CLIContext {
    CLIContext(
        registry: testRegistry(), environment: environment,
        console: Console(
            standardOutput: BufferSink(), standardError: BufferSink(), outputIsTerminal: false,
            errorIsTerminal: false, width: 100),
        makeHTTPClient: { _ in NoNetworkHTTPClient() })
}

/// The usage error's message `body` throws, or `nil` when it throws none or another.
private func usageMessage(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as AggError {
        return error.isUsageError ? error.description : nil
    } catch {
        return nil
    }
}

/// record, watch, serve, favorites and config are declarations: each builds a typed request
/// (all validation in its init), calls a service without a terminal, and hands its report to a
/// rendering (issue 21, item 1).
@Suite("Commands as declarations (record, watch, serve, favorites, config)")
struct CommandDeclarationTests {
    static let commands = ["Record", "Watch", "Serve", "Favorites", "Config"]

    /// Where `name`'s feature lives: AggServices' Features/<Feature>/, serve's in AggServe.
    static func featureFolder(_ name: String) -> String {
        name == "Serve" ? "Sources/AggServe/Command" : "Sources/AggServices/Features/\(name)"
    }

    @Test("each command file is at most 80 lines", arguments: commands)
    func short(name: String) throws {
        let spec = name == "Serve" ? "Sources/AggServe/Command" : "Sources/AggServices/Commands"
        for path in ["\(spec)/\(name)Command.swift", "Sources/AggCLI/Commands/\(name)Command+Run.swift"] {
            let lines = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count - 1 <= 80, "\(path) has \(lines.count - 1) lines")
        }
    }

    @Test("each feature's request, service and rendering sit in Features/<Feature>/", arguments: commands)
    func together(name: String) throws {
        let folder = packageRoot.appendingPathComponent(Self.featureFolder(name))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(files.contains("\(name)Request.swift"))
        #expect(files.contains("\(name)Service.swift"))
    }

    @Test("no request or service touches the terminal", arguments: commands)
    func withoutTerminal(name: String) throws {
        for kind in ["Request", "Service"] {
            let path = packageRoot.appendingPathComponent("\(Self.featureFolder(name))/\(name)\(kind).swift")
            let text = try String(contentsOf: path, encoding: .utf8)
            for word in ["Console", "console", "printError", "standardOutput", "standardError"] {
                #expect(!text.contains(word), "\(name)\(kind).swift uses \(word)")
            }
        }
    }

    @Test("the serve token, not a command, lives with serve")
    func serveTokenMoved() {
        let commands = packageRoot.appendingPathComponent("Sources/AggCLI/Commands/ServeToken.swift")
        let feature = packageRoot.appendingPathComponent("Sources/AggServe/Command/ServeToken.swift")
        #expect(!FileManager.default.fileExists(atPath: commands.path))
        #expect(FileManager.default.fileExists(atPath: feature.path))
    }
}

@Suite("Feature requests: validation in the init, exact values")
struct FeatureRequestTests {
    @Test("config: path and show, an unknown action, no place for the file")
    func config() throws {
        let show = try ArgumentParser.parse(["show"], spec: ConfigCommand.spec)
        #expect(try ConfigRequest(show, environment: [:]) == .show)
        let path = try ArgumentParser.parse(["path"], spec: ConfigCommand.spec)
        #expect(try ConfigRequest(path, environment: ["AGG_CONFIG": "/tmp/agg-h14.json"]) == .path("/tmp/agg-h14.json"))
        #expect(
            usageMessage { _ = try ConfigRequest(path, environment: [:]) }
                == "no config file location: set AGG_CONFIG, XDG_CONFIG_HOME or HOME")
        #expect(
            usageMessage { _ = try ConfigRequest(ParsedArguments(positionals: ["edit"]), environment: [:]) }
                == "unknown config action 'edit'; expected path or show")
        let missing = unusedTemporaryPath()
        let service = ConfigService(environment: [:], configuration: .none, registry: testRegistry())
        #expect(service.run(.path(missing)) == .path(missing, exists: false))
    }

    @Test("favorites: codes checked and sorted into lists before the database is opened")
    func favorites() throws {
        let add = try FavoritesRequest(
            ArgumentParser.parse(["add", "krw", "usdt", "KRW"], spec: FavoritesCommand.spec))
        #expect(add.action == .add)
        #expect(add.only == nil)
        #expect(
            add.entries == [
                FavoritesRequest.Entry(code: "KRW", kinds: [.currency, .symbol]),
                FavoritesRequest.Entry(code: "USDT", kinds: [.symbol]),
            ])
        let coin = try FavoritesRequest(ArgumentParser.parse(["remove", "eth", "--coin"], spec: FavoritesCommand.spec))
        #expect(coin.only == .symbol)
        #expect(coin.entries == [FavoritesRequest.Entry(code: "ETH", kinds: [.symbol])])
        #expect(
            usageMessage { _ = try FavoritesRequest(ParsedArguments(positionals: ["ad", "BTC"])) }
                == "unknown action 'ad'; did you mean 'add'?")
        #expect(
            usageMessage {
                _ = try FavoritesRequest(
                    ArgumentParser.parse(["list", "--coin", "--currency"], spec: FavoritesCommand.spec))
            } == "give --currency or --coin, not both (neither: both lists where the code fits)")
        #expect(
            usageMessage { _ = try FavoritesRequest(ParsedArguments(positionals: ["remove"])) }
                == "name at least one CODE to remove; usage: agg \(FavoritesCommand.spec.usage)")
    }

    @Test("favorites: the service adds, removes and reports what was no favorite, without a terminal")
    func favoritesService() async throws {
        try await withTemporaryHome { home async throws in
            let service = FavoritesService { () throws(AggError) in try Store.open(environment: ["AGG_HOME": home]) }
            let added = try service.run(
                FavoritesRequest(ArgumentParser.parse(["add", "KRW", "BTC"], spec: FavoritesCommand.spec)))
            #expect(
                added
                    == FavoritesReport(
                        listing: [
                            .init(kind: .currency, codes: ["BTC", "KRW"]), .init(kind: .symbol, codes: ["BTC", "KRW"]),
                        ],
                        notFavorites: []))
            let removed = try service.run(
                FavoritesRequest(ArgumentParser.parse(["remove", "BTC", "JPY", "--coin"], spec: FavoritesCommand.spec)))
            #expect(removed == FavoritesReport(listing: [.init(kind: .symbol, codes: ["KRW"])], notFavorites: ["JPY"]))
        }
    }

    @Test("watch: the interval is raised to the default and refused below the floor, with the reason")
    func watch() throws {
        let plain = try WatchRequest(
            ArgumentParser.parse(["BTC", "--exchange", "bithumb", "--count", "3"], spec: WatchCommand.spec),
            context: context())
        #expect(plain.interval == 2)
        #expect(plain.count == 3)
        #expect(plain.plan.venues == ["bithumb"])
        #expect(plain.alerts == nil)
        #expect(plain.transfers == nil)
        let short = try ArgumentParser.parse(
            ["BTC", "--exchange", "bithumb", "--interval", "0.5"], spec: WatchCommand.spec)
        #expect(
            usageMessage { _ = try WatchRequest(short, context: context()) }
                == "--interval 0.5 is too short: at least 1 s (the shortest interval agg allows)")
        let premium = try ArgumentParser.parse(
            ["BTC", "--exchange", "bithumb", "--alert", "BTC premium > 3%"], spec: WatchCommand.spec)
        #expect(
            usageMessage { _ = try WatchRequest(premium, context: context()) }
                == "--alert 'BTC premium > 3%': agg watch has no premium (premiums are on agg premium --watch)")
    }

    @Test("record: each venue's deadline is half the interval, at most --timeout, and the timeouts follow it")
    func record() throws {
        let request = try RecordRequest(
            ArgumentParser.parse(
                ["BTC", "--exchange", "upbit", "--interval", "2", "--retain", "7d", "--count", "4", "--quiet"],
                spec: RecordCommand.spec), context: context())
        #expect(request.interval == 2)
        #expect(request.options.timeouts.total == 1)
        #expect(request.settings.venueDeadline == 1)
        #expect(request.settings.deadlineGrace == 0.2)
        #expect(request.settings.pruneEveryTicks == 30)
        #expect(request.settings.retainSeconds == Int64(7 * 86_400))
        #expect(request.count == 4)
        #expect(request.quiet)
        #expect(request.sources == ["upbit", "exchangerate"])
        let long = try RecordRequest(
            ArgumentParser.parse(["--exchange", "upbit", "--interval", "1m"], spec: RecordCommand.spec),
            context: context())
        #expect(long.options.timeouts.total == 10)
        #expect(long.settings.retainSeconds == Int64(30 * 86_400))
        #expect(long.count == nil)
        let premium = try ArgumentParser.parse(["--alert", "BTC premium > 3%"], spec: RecordCommand.spec)
        #expect(
            usageMessage { _ = try RecordRequest(premium, context: context()) }
                == "--alert 'BTC premium > 3%': agg record has no premium (premiums need --premium; change is on agg watch)"
        )
    }

    @Test("serve: beyond loopback needs a token; --token warns once, before any refusal; one token source")
    func serve() throws {
        let open = try ArgumentParser.parse(["--listen", "0.0.0.0:8080"], spec: ServeCommand.spec)
        var warnings: [String] = []
        #expect(
            serveRefusal { _ = try ServeRequest(open, context: context()) { warnings.append($0) } }
                == "listening on 0.0.0.0:8080 beyond loopback needs a token: --token-file, AGG_TOKEN or --token")
        #expect(warnings == [])
        let flagged = try ArgumentParser.parse(
            ["--token", "a-token-of-24-characters", "--exchange", "exchangerate"], spec: ServeCommand.spec)
        #expect(
            serveRefusal { _ = try ServeRequest(flagged, context: context()) { warnings.append($0) } }
                == "exchangerate has no tickers to serve; see 'agg exchanges'")
        #expect(warnings == ["--token is visible to other users in ps; use --token-file PATH or AGG_TOKEN"])
        let both = try ArgumentParser.parse(
            ["--token", "a-token-of-24-characters", "--token-file", "/nonexistent"], spec: ServeCommand.spec)
        do throws(ServeRequest.Failure) {
            _ = try ServeRequest(both, context: context()) { _ in }
            Issue.record("two token sources were taken")
        } catch {
            guard case .token(let failure) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(
                failure
                    == ServeToken.Failure(message: "give one of --token and --token-file, not both", exitCode: .usage))
        }
        let request = try ServeRequest(
            ArgumentParser.parse(["--fx", "exchangerate"], spec: ServeCommand.spec), context: context()
        ) { _ in }
        #expect(request.address == .standard)
        #expect(request.token == nil)
        #expect(request.options.offline == false)
        #expect(request.interval == 5)
        #expect(
            ServeRendering.line(.serving(baseURL: "http://127.0.0.1:8080", sources: 5, interval: 5))
                == "agg: serving on http://127.0.0.1:8080, polling 5 sources every 5 s")
        #expect(ServeRendering.line(.stopped) == "agg: stopped")
    }

    /// Before, the rules were checked after the `--offline` notices were printed and the store
    /// was opened: a bad rule came after two notice lines, and after an unusable `--store` it
    /// was never reported (exit 70 instead of 64).
    @Test("record checks its alert rules before it announces anything or opens the store")
    func recordValidatesFirst() async throws {
        let fixtures = packageRoot.appendingPathComponent("Fixtures").path
        let rule = "BTC premium > 3%"
        let expected = [
            "agg: --alert '\(rule)': agg record has no premium (premiums need --premium; change is on agg watch)"
        ]
        let offline = await runCLI(
            ["record", "--exchange", "upbit", "--offline", "--count", "1", "--alert", rule],
            environment: ["AGG_FIXTURES": fixtures])
        #expect(offline.status == 64)
        #expect(offline.errorLines == expected)
        let unusable = await runCLI(
            ["record", "--exchange", "upbit", "--count", "1", "--store", "/dev/null/history.sqlite", "--alert", rule])
        #expect(unusable.status == 64)
        #expect(unusable.errorLines == expected)
    }

    /// The usage message of a refused serve request, or `nil`.
    private func serveRefusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ServeRequest.Failure {
            guard case .refused(let refusal) = error, refusal.isUsageError else { return nil }
            return refusal.description
        } catch {
            return nil
        }
    }
}
