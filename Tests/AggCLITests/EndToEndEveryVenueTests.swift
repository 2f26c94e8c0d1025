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
/// files, so that a new venue joins them without an edit here; exact values are checked for the venues listed in `expected`.
@Suite("every venue's quote path, end to end, repeated")
struct EndToEndEveryVenueTests {
    static let runs = ProcessInfo.processInfo.environment["AGG_E2E_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 2

    /// What the fixtures say, field by field, for the markets these scenarios ask for.
    static let expected: [String: [String: String]] = [
        "bithumb BTC/KRW": [
            "last": "80630000", "high": "81500000", "low": "77734000", "baseVolume": "1368.01423432",
            "timestamp": "2024-08-08T08:12:15.027Z",
        ],
        "bithumb ETH/KRW": [
            "last": "3406000", "high": "3460000", "low": "3275000", "baseVolume": "13620.03845622",
            "timestamp": "2024-08-08T08:12:15.027Z",
        ],
        "upbit BTC/KRW": [
            "last": "80651000", "high": "81480000", "low": "79120000", "baseVolume": "3876.21587312",
            "timestamp": "2024-08-08T08:12:15.112Z",
        ],
        "upbit ETH/KRW": [
            "last": "3407000", "high": "3468000", "low": "3372000", "baseVolume": "43611.08930452",
            "timestamp": "2024-08-08T08:12:14.920Z",
        ],
        "binance BTC/USDT": [
            "last": "58412.07", "high": "59133.5", "low": "56411.23", "baseVolume": "31245.67812",
            "timestamp": "2024-08-08T08:12:14.987Z",
        ],
        "binance ETH/USDT": [
            "last": "2478.31", "high": "2512.64", "low": "2381.2", "baseVolume": "452318.7126",
            "timestamp": "2024-08-08T08:12:14.950Z",
        ],
        "coinbase BTC/USD": [
            "last": "58431.29", "high": "59140.01", "low": "56420.5", "baseVolume": "14871.30945112",
            "timestamp": "2024-08-08T08:12:14.874Z",
        ],
        "coinbase ETH/USD": [
            "last": "2479.05", "high": "2513.2", "low": "2380.01", "baseVolume": "161532.8806154",
            "timestamp": "2024-08-08T08:12:13.600Z",
        ],
        "coinone BTC/KRW": [
            "last": "80640000", "high": "81490000", "low": "77750000", "baseVolume": "262.18439521",
            "timestamp": "2024-08-08T08:12:14.981Z",
        ],
        "coinone ETH/KRW": [
            "last": "3406000", "high": "3462000", "low": "3276000", "baseVolume": "2431.25874563",
            "timestamp": "2024-08-08T08:12:14.512Z",
        ],
        "korbit BTC/KRW": [
            "last": "80645000", "high": "81470000", "low": "77760000", "baseVolume": "184.35571236",
            "timestamp": "2024-08-08T08:12:13.875Z",
        ],
        "korbit ETH/KRW": [
            "last": "3407000", "high": "3461000", "low": "3277000", "baseVolume": "1825.4417821",
            "timestamp": "2024-08-08T08:12:14.201Z",
        ],
        // Kraken sends no time.
        "kraken BTC/USD": ["last": "58419.9", "high": "59140", "low": "56402", "baseVolume": "4318.24710582"],
        "kraken ETH/USD": ["last": "2478.69", "high": "2512", "low": "2381", "baseVolume": "64125.81236547"],
        "okx BTC/USDT": [
            "last": "58415.3", "high": "59140", "low": "56402.1", "baseVolume": "8123.40812245",
            "timestamp": "2024-08-08T08:12:15.012Z",
        ],
        "okx ETH/USDT": [
            "last": "2478.52", "high": "2512.4", "low": "2381.06", "baseVolume": "127452.15478",
            "timestamp": "2024-08-08T08:12:14.874Z",
        ],
        // GOPAX's ticker sends no high or low (its venue file maps them from the all-tickers answer only).
        "gopax BTC/KRW": ["last": "80640000", "baseVolume": "35.09171591", "timestamp": "2024-08-08T08:12:14.871Z"],
    ]

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
            let home = expected.keys.filter { $0.hasPrefix(venue + " BTC/") }.map { $0.split(separator: "/")[1] }
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
