import AggCore
import AggServer
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions
@testable import AggServe
@testable import AggServices

/// Every example of `agg quote`, `compare`, `premium`, `rates` and `status` that `agg serve`
/// offers, run through the command line (`-f json`) and the matching `/v1` route: the bytes are
/// the same, and so is a refusal (exit 64, 400 with the same message). Both build the same
/// request and call the same service and rendering; serve's venues answer from its snapshot of
/// the loopback fixtures, so the command line is run once over that same snapshot (every example
/// equal) and once over the fixtures themselves (equal but for the markets serve does not poll).
@Suite("agg serve answers every command example as the CLI does")
struct ServeExamplesTests {
    /// A command whose examples serve answers, and its route's query map.
    struct Route: Sendable {
        var command: any Command.Type
        var path: String
        var query: ServeEndpoints.QueryMap
    }

    static let routes: [Route] = [
        Route(command: QuoteCommand.self, path: "/v1/quote", query: ServeEndpoints.quoteQuery),
        Route(command: CompareCommand.self, path: "/v1/compare", query: ServeEndpoints.compareQuery),
        Route(command: PremiumCommand.self, path: "/v1/premium", query: ServeEndpoints.premiumQuery),
        Route(command: RatesCommand.self, path: "/v1/rates", query: ServeEndpoints.ratesQuery),
        Route(command: StatusCommand.self, path: "/v1/status", query: ServeEndpoints.statusQuery),
    ]

    /// The examples that take an option serve does not offer (`--all`, `--max-stale`, `--usdt`,
    /// `--watch`, `--offline`, a `--format` other than JSON), each named: a new example is either
    /// served (and compared) or added here on purpose.
    static let notServed: Set<String> = [
        "agg quote --all --exchange bithumb --format csv",
        "agg quote BTC --max-stale 1h",
        "agg quote BTC --stale-after 10s",
        "agg premium --watch --interval 30 --top 30",
        // serve polls no order books: /v1/premium takes no notional.
        "agg premium --notional 10M --net --top 10",
        "agg premium BTC --watch --alert 'upbit:BTC premium > 3%' --alert-log alerts.jsonl",
        "agg rates --offline --format csv",
    ]

    /// Every example of every route, with its command line and its serve path (`nil` when not served).
    static var examples: [(example: String, command: [String], path: String?)] {
        routes.flatMap { route in
            route.command.spec.examples.map { example in
                let words = Self.words(example)
                return (example, Array(words.dropFirst()), Self.path(Array(words.dropFirst(2)), route: route))
            }
        }
    }

    /// `example`'s words as a shell splits them (single quotes only, as the examples use).
    static func words(_ example: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in example {
            if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    /// The serve path asking what `arguments` ask, or `nil` when one of them has no query name.
    static func path(_ arguments: [String], route: Route) -> String? {
        let options = route.command.spec.options
        var positionals: [String] = []
        var query: [(String, String)] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-") else {
                positionals.append(word)
                continue
            }
            let option = options.first { "--" + $0.name == word || $0.short.map { "-\($0)" } == word }
            guard let option, option.valueName != nil, index < arguments.count else { return nil }
            let value = arguments[index]
            index += 1
            if option.name == "format" {
                guard value == "json" else { return nil }
                continue
            }
            guard let name = route.query.options.first(where: { $0.value == option.name })?.key else { return nil }
            query.append((name, value))
        }
        if !positionals.isEmpty {
            guard let name = route.query.positional else { return nil }
            query.insert((name, positionals.joined(separator: ",")), at: 0)
        }
        let encoded = query.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
        }
        return route.path + (encoded.isEmpty ? "" : "?" + encoded.joined(separator: "&"))
    }

    @Test("the examples serve does not offer are exactly the ones named")
    func notServedAreNamed() {
        let unserved = Set(Self.examples.filter { $0.path == nil }.map(\.example))
        #expect(unserved == Self.notServed)
        #expect(Self.examples.count - unserved.count == 19)
    }

    /// The served examples whose live answer differs from serve's because the data differ,
    /// not the code: serve polls each venue's tickers in one currency and USD rates only
    /// (docs/serve.md: other markets are "not among the KRW markets agg serve polls"), and some
    /// venues' recordings have no single ticker for a coin their all-tickers answer lists.
    static let liveDataDiffers: [String: String] = [
        "agg quote ETH/BTC --exchange bithumb": "ETH/BTC is not among the KRW markets serve polls",
        "agg compare BTC ETH XRP": "the recordings have no single XRP ticker; the all-tickers answers list XRP",
        "agg compare USDT": "bithumb's recordings have no single USDT ticker; coinbase's USDT/USD is not polled",
        "agg rates KRW --to USD,JPY,EUR": "serve polls USD rates only",
        "agg rates USD --to KRW --source all": "bithumb's recordings have no single USDT ticker",
    ]

    /// Runs every served example through serve and through `cli`, comparing; answers the
    /// examples whose answers differ.
    static func compare(
        harness: ServeHarness, snapshot: ServeSnapshot, cli: ([String]) async -> CLIRun
    ) async throws -> Set<String> {
        var differing: Set<String> = []
        for (example, command, path) in examples {
            guard let path else { continue }
            let answer = try await harness.get(path)
            let run = await cli(command + ["-f", "json"])
            if run.output.isEmpty {
                // A refusal (exit 64: 400) or a failure before any answer (exit 1: 502), with
                // the command's one line as the message.
                #expect([1, 64].contains(run.status), "\(example)")
                let status = run.status == 64 ? 400 : 502
                let message = String(run.error.dropFirst("agg: ".count).dropLast())
                if answer.text != HTTPServerResponse.errorText(status, message) { differing.insert(example) }
            } else {
                // Serve's quotes carry each venue's own arrival time: compared without the age members.
                if answer.status != 200 || AgeFields.stripped(text: answer.text) != AgeFields.stripped(text: run.output)
                {
                    differing.insert(example)
                }
            }
        }
        return differing
    }

    @Test("each served example over serve's snapshot: the route's body is the command's JSON, byte for byte")
    func servedExamplesMatchOverTheSnapshot() async throws {
        let harness = try ServeHarness()
        let snapshot = await harness.poll()
        let registry = harness.registry.answering(from: snapshot)
        let differing = try await Self.compare(harness: harness, snapshot: snapshot) { arguments in
            await runCLI(arguments, environment: harness.fixtures.environment, registry: registry, now: snapshot.time)
        }
        #expect(differing == [])
    }

    @Test("each served example over the fixtures: the same bytes, but for the markets serve does not poll")
    func servedExamplesMatchLive() async throws {
        let harness = try ServeHarness()
        let snapshot = await harness.poll()
        let differing = try await Self.compare(harness: harness, snapshot: snapshot) { arguments in
            await harness.cli(arguments, now: snapshot.time)
        }
        #expect(differing == Set(Self.liveDataDiffers.keys))
    }
}
