import AggCore
import AggDataVenues
import AggJSON
import AggTestKit
import AggVenues
import Foundation
import Testing

/// Every venue's quote path through the real binary, many times over. CI runs these against the
/// release `agg` (`AGG_BINARY`) in a step of their own with `AGG_E2E_RUNS=40`: a release-only
/// miscompile in the concurrent fan-out crashed about 9 runs in 10 on Binance and Coinbase while
/// every debug test passed, and 40 runs catch even a failure of 1 run in 10 (they miss it with
/// probability 0.9^40, 1.5 %). Within the whole suite each scenario runs twice, so that hundreds
/// of processes do not crowd the suite's timing-sensitive tests.
///
/// The scenarios over every venue take the venues from the standard registry and the shipped venue
/// files, so that a new venue joins them without an edit here; exact values are checked for the markets listed in `markets`.
@Suite("every venue's quote path, end to end, repeated")
struct EndToEndEveryVenueTests {
    static let runs = ProcessInfo.processInfo.environment["AGG_E2E_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 2

    /// The markets these scenarios ask for, as `exchange symbol`.
    static let markets = [
        "bithumb BTC/KRW", "bithumb ETH/KRW", "upbit BTC/KRW", "upbit ETH/KRW", "binance BTC/USDT", "binance ETH/USDT",
        "coinbase BTC/USD", "coinbase ETH/USD", "coinone BTC/KRW", "coinone ETH/KRW", "korbit BTC/KRW",
        "korbit ETH/KRW", "kraken BTC/USD", "kraken ETH/USD", "okx BTC/USDT", "okx ETH/USDT", "gopax BTC/KRW",
    ]

    /// The fields checked on each quote, where the venue's expectation has them: Kraken sends no
    /// time, and GOPAX's ticker no high or low (its venue file maps them from the all-tickers
    /// answer only).
    static let fields = ["last", "high", "low", "baseVolume", "timestamp"]

    /// What the fixtures say, field by field, for `markets`: the answer the venue's expectations
    /// (`Fixtures/<id>/expectations.json`) give for the market's own ticker case, or else for the
    /// first several-markets case that answers it, so that the binary is held to the same
    /// numbers as the adapter.
    static let expected: [String: [String: String]] = Dictionary(
        uniqueKeysWithValues: markets.map { key in (key, (try? expectedFields(key)) ?? [:]) })

    static func expectedFields(_ key: String) throws -> [String: String] {
        let parts = key.split(separator: " ").map(String.init)
        let pair = parts[1].split(separator: "/").map(String.init)
        let market = Market(base: pair[0], quote: pair[1])
        let answers = try VenueExpectations.venue(parts[0]).cases.compactMap { expectation -> JSONCursor? in
            switch expectation.request {
            case .ticker(market): JSONCursor(expectation.expected)
            case .quotes(let asked) where asked.contains(market): JSONCursor(expectation.expected)[parts[1]]
            default: nil
            }
        }
        let answer = answers.first { $0["last"].isPresent }
        guard let answer else { return [:] }
        var values: [String: String] = [:]
        for field in fields where answer[field].isPresent { values[field] = try answer[field].string() }
        return values
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// The `exchange symbol` keys expected, in output order.
        var markets: [String]
        var offline = false

        var testDescription: String { "agg " + arguments.joined(separator: " ") }
    }

    /// Every venue the binary knows: the standard list and the venue files shipped with it.
    static let shipped = DataVenueLoader.load(
        into: .standard, shipped: [DataVenueDirectory.checkout], user: nil
    ).registry

    /// `venue BTC/<home currency>` for every shipped venue with tickers, in output order.
    static let everyVenueBTC = shipped.descriptors(supporting: .ticker).map {
        "\($0.id) BTC/\($0.homeCurrency)"
    }

    static let scenarios: [Scenario] =
        ["bithumb", "upbit", "binance", "coinbase", "coinone", "korbit", "kraken", "okx"].flatMap {
            venue -> [Scenario] in
            let home = markets.filter { $0.hasPrefix(venue + " BTC/") }.map { $0.split(separator: "/")[1] }
            return [
                Scenario(arguments: ["quote", "BTC", "-e", venue], markets: ["\(venue) BTC/\(home[0])"]),
                Scenario(
                    arguments: ["quote", "BTC", "ETH", "-e", venue],
                    markets: ["\(venue) BTC/\(home[0])", "\(venue) ETH/\(home[0])"]),
            ]
        } + [
            Scenario(arguments: ["quote", "BTC"], markets: everyVenueBTC),
            Scenario(
                arguments: ["quote", "BTC", "-q", "USD"],
                markets: shipped.descriptors(supporting: .ticker, quotedIn: "USD").map {
                    "\($0.id) BTC/USD"
                }),
            Scenario(arguments: ["quote", "BTC", "--offline"], markets: everyVenueBTC, offline: true),
            Scenario(
                arguments: ["quote", "BTC", "ETH", "--offline", "-e", "binance,bithumb,coinbase,upbit"],
                markets: [
                    "binance BTC/USDT", "binance ETH/USDT", "bithumb BTC/KRW", "bithumb ETH/KRW",
                    "coinbase BTC/USD", "coinbase ETH/USD", "upbit BTC/KRW", "upbit ETH/KRW",
                ],
                offline: true),
        ]

    @Test("the expectation files give every market its fields, as written when they stood here")
    func expectationsAnswer() {
        #expect(Self.expected.count == Self.markets.count)
        for key in Self.markets {
            let fields = key.hasPrefix("kraken") ? 4 : key.hasPrefix("gopax") ? 3 : 5
            #expect(Self.expected[key]?.count == fields, "\(key)")
        }
        #expect(Self.expected["bithumb ETH/KRW"]?["baseVolume"] == "13620.03845622")
        #expect(Self.expected["korbit ETH/KRW"]?["timestamp"] == "2024-08-08T08:12:14.201Z")
        #expect(
            Self.expected["kraken BTC/USD"] == [
                "last": "58419.9", "high": "59140", "low": "56402", "baseVolume": "4318.24710582",
            ])
        #expect(
            Self.expected["gopax BTC/KRW"] == [
                "last": "80640000", "baseVolume": "35.09171591", "timestamp": "2024-08-08T08:12:14.871Z",
            ])
    }

    @Test("exact values and exit 0 on every run", arguments: scenarios)
    func repeated(_ scenario: Scenario) async throws {
        let server = try FixtureServer()
        var environment = scenario.offline ? [:] : server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-venues-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: environment["AGG_HOME"] ?? "") }
        for run in 1...Self.runs {
            let result = try await AggBinary.run(scenario.arguments + ["--format", "json"], environment: environment)
            try #require(result.status == 0, "run \(run): exit \(result.status), stderr: \(result.error)")
            let quotes = JSONCursor(try JSONParser.parse(result.output))["quotes"]
            var seen: [String] = []
            for index in 0..<scenario.markets.count {
                let quote = quotes[index]
                let key = "\(try quote["exchange"].string()) \(try quote["symbol"].string())"
                seen.append(key)
                for (field, value) in Self.expected[key] ?? [:] {
                    #expect(try quote[field].string() == value, "run \(run): \(key) \(field)")
                }
            }
            try #require(seen == scenario.markets, "run \(run)")
            #expect(throws: (any Error).self) { try quotes[scenario.markets.count].string() }
        }
    }

    @Test("agg watch BTC across every venue refreshes without a crash")
    func watch() async throws {
        let server = try FixtureServer()
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-watch-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: environment["AGG_HOME"] ?? "") }
        for run in 1...max(1, Self.runs / 5) {
            let result = try await AggBinary.run(
                ["watch", "BTC", "--count", "2", "--interval", "1", "-f", "csv"], environment: environment)
            try #require(result.status == 0, "run \(run): exit \(result.status), stderr: \(result.error)")
            let rows = result.output.split(separator: "\n").filter { $0.contains(",BTC/") }
            #expect(rows.count == 2 * Self.everyVenueBTC.count, "run \(run)")
            #expect(rows.filter { $0.hasPrefix("coinbase,BTC/USD,BTC,USD,58431.29,") }.count == 2, "run \(run)")
            #expect(rows.filter { $0.hasPrefix("binance,BTC/USDT,BTC,USDT,58412.07,") }.count == 2, "run \(run)")
        }
    }
}
