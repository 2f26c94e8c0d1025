import AggFixtures
import AggTestKit
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The board page in a real Chromium: `agg serve` (the built binary) on loopback fixtures, and
/// Tests/Browser/board_test.py driving the browser with Selenium (rows, exact values, sort,
/// filter, the live update, stale greying, the XSS case, a quiet console, the themes and palettes
/// with their contrast, the languages, the venue picker, a coin's history chart, the keyboard,
/// screenshots of both themes, the bearer token from the URL fragment and from the page's form).
/// Tools/test makes the Selenium venv and sets `AGG_TEST_BROWSER_PYTHON`; without it the test
/// is skipped with one line (Tools/test leaves it unset only when Chromium cannot be installed).
@Suite("agg serve: the board page in Chromium")
struct BoardBrowserTests {
    static let python: String? = ProcessInfo.processInfo.environment["AGG_TEST_BROWSER_PYTHON"].flatMap {
        $0.isEmpty ? nil : $0
    }
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The poll interval: the checks derive their deadlines from it.
    static let interval = 2
    static let token = "board-browser-token-0123456789"

    /// What the test changes in the fixtures, through `GET /control/...` of the fixture server.
    final class Knobs: Sendable {
        let price = Mutex<String?>(nil)
        let failing = Mutex<Set<String>>([])

        /// `/control/price?value=N` (bithumb's BTC price), `/control/fail?venue=ID` (the venue
        /// answers every request with an error whose message is markup).
        func control(_ request: LoopbackRequest) -> LoopbackReply {
            let value = request.query.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
            switch request.path {
            case "/price": price.withLock { $0 = value }
            case "/fail": failing.withLock { _ = $0.insert(value) }
            default: return .status(404)
            }
            return .json("{}")
        }

        func answer(_ venue: String, _ request: LoopbackRequest) -> LoopbackReply? {
            if venue == "control" { return control(request) }
            if failing.withLock({ $0.contains(venue) }) {
                return .json(
                    #"{"error":{"name":"board_test","message":"<img src=x onerror=alert(1)>"}}"#, status: 400)
            }
            if venue == "bithumb", request.path == "/public/ticker/ALL_KRW", let price = price.withLock({ $0 }),
                let text = try? String(
                    contentsOf: Fixtures.directory.appendingPathComponent("bithumb/ticker_ALL_KRW.json"),
                    encoding: .utf8),
                let range = text.range(of: #""closing_price":"80630000""#)
            {
                return .json(text.replacingCharacters(in: range, with: #""closing_price":"\#(price)""#))
            }
            return nil
        }
    }

    @Test(
        "rows, values, sort, filter, live update, stale, XSS, themes, languages, venues, detail chart, keys, token",
        .enabled(
            if: python != nil,
            "AGG_TEST_BROWSER_PYTHON is not set: no browser to test with (Tools/test sets up Chromium and Selenium)"),
        .timeLimit(.minutes(6)))
    func board() async throws {
        let python = try #require(Self.python)
        let knobs = Knobs()
        let fixtures = try FixtureServer { venue, request in knobs.answer(venue, request) }
        defer { fixtures.stop() }
        // A venue whose name is markup: GOPAX's own file with another name, in the user's folder.
        let home = try temporaryDirectory()
        let venues = home.appendingPathComponent("config/agg/venues")
        try FileManager.default.createDirectory(at: venues, withIntermediateDirectories: true)
        let shipped = try String(
            contentsOf: Self.root.appendingPathComponent("Plugins/DataVenues/gopax.json"), encoding: .utf8)
        try shipped.replacingOccurrences(of: #""name": "GOPAX""#, with: #""name": "<img src=x onerror=alert(1)>""#)
            .write(to: venues.appendingPathComponent("gopax.json"), atomically: true, encoding: .utf8)
        var environment = fixtures.environment
        environment["AGG_HOME"] = home.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        // The detail view's history: two ticks of `agg record --premium` in agg's own database,
        // which serve reads, as a user's recorder would have left them (10 s apart: each venue
        // has half the interval to answer, which a loaded machine needs).
        let record = try await AggBinary.run(
            [
                "record", "BTC", "ETH", "--premium", "--exchange", "bithumb,upbit,binance", "--count", "2",
                "--interval", "10s", "--quiet",
            ],
            environment: environment)
        try #require(record.status == 0, "agg record: \(record.error)")
        // The page must work behind the token: the whole test runs with one.
        environment["AGG_TOKEN"] = Self.token
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb,upbit,binance,gopax", "--fx",
                "frankfurter",
                "--interval", "\(Self.interval)s",
            ],
            environment: environment)
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 10) { $0.contains("polling") })
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") }, "\(stderr.value)")
        var health = 0
        for _ in 0..<400 where health != 200 {
            health = (try? await RawHTTPClient.get(port: port, "/healthz").status) ?? 0
            if health != 200 { try await Task.sleep(for: .milliseconds(25)) }
        }
        try #require(health == 200)
        let output =
            ProcessInfo.processInfo.environment["AGG_TEST_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.root.appendingPathComponent(".build/test-output").path
        let script = Process()
        script.executableURL = URL(fileURLWithPath: python)
        script.arguments = [
            Self.root.appendingPathComponent("Tests/Browser/board_test.py").path,
            "--url", "http://127.0.0.1:\(port)", "--token", Self.token, "--control",
            fixtures.server.baseURL + "/control",
            "--interval", String(Self.interval), "--out", output + "/board", "--agg", AggBinary.url.path,
            "--agg-home", home.appendingPathComponent("home").path,
        ]
        let pipe = Pipe()
        script.standardOutput = pipe
        script.standardError = pipe
        script.standardInput = FileHandle.nullDevice
        try script.run()
        let text = PipeText(pipe)
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                script.waitUntilExit()
                continuation.resume(returning: script.terminationStatus)
            }
        }
        _ = await text.wait(seconds: 5) { $0.contains("board: all checks passed") || $0.contains("FAIL") }
        print(text.value)
        #expect(status == 0, "\(text.value)")
        #expect(text.value.contains("board: all checks passed\n"))
    }
}
