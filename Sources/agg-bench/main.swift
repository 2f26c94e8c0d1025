// agg-bench: measures what users feel, reporting medians over repeated runs.
//
//   swift build -c release && .build/release/agg-bench [--runs N]
//
// 1. decode + normalize of Bithumb's 480-coin ALL_KRW body (ms, MB/s), against Foundation;
// 2. fan-out: N venues on a loopback server, each answering after 300 ms (wall / 300 ms);
// 3. whole-process cold start of `agg quote BTC --exchange bithumb` against the loopback
//    server (ms) and its peak RSS;
// 4. `agg compare BTC --usdt market` with every venue and the FX source answering 400 ms late
//    (wall / 400 ms: one round trip is 1.0).
import AggCore
import AggJSON
import AggTestKit
import AggTransport
import AggVenues
import Bithumb
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let runs =
    arguments.firstIndex(of: "--runs").flatMap { index in
        arguments.indices.contains(index + 1) ? Int(arguments[index + 1]) : nil
    } ?? 21

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func line(_ name: String, _ value: String) {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0) + value)
}

// MARK: 1. Decoding

let body = try Fixtures.bytes("bithumb/ticker_ALL_KRW.json")
var quoteCount = 0
let decodeTimes = try (0..<runs).map { _ in
    try seconds {
        let json = JSONCursor(try JSONParser.parse(body))
        quoteCount = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).count
    }
}
let parseTimes = try (0..<runs).map { _ in try seconds { _ = try JSONParser.parse(body) } }
let foundationDecodeTimes = try (0..<runs).map { _ in
    try seconds { _ = try BithumbFoundationDecoding.allQuotes(body, payment: "KRW") }
}
let serializationTimes = try (0..<runs).map { _ in
    try seconds { _ = try JSONSerialization.jsonObject(with: Data(body)) }
}
let megabytes = Double(body.count) / 1_000_000
func throughput(_ name: String, _ times: [Double]) {
    let value = median(times)
    line(name, String(format: "%8.3f ms  %7.1f MB/s", value * 1000, megabytes / value))
}
print("1. Bithumb ALL_KRW: \(body.count) bytes, \(quoteCount) quotes; median of \(runs) runs")
throughput("   agg: parse + decode + normalize", decodeTimes)
throughput("   agg: parse only", parseTimes)
throughput("   Foundation JSONDecoder + Decimal(string:)", foundationDecodeTimes)
throughput("   Foundation JSONSerialization, parse only", serializationTimes)

// MARK: 2. Fan-out

let delay = 0.3
let server = try FixtureServer(venues: ["bithumb"]) { _, request in
    guard let answer = try? Fixtures.routes("bithumb").answer(path: request.path, query: request.query) else {
        return nil
    }
    return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body, delay: delay)
}
let client = CurlHTTPClient()
print("2. Fan-out: every venue answers after \(Int(delay * 1000)) ms; median of \(min(runs, 7)) runs")
for venues in [1, 4, 8, 16] {
    var walls: [Double] = []
    for _ in 0..<min(runs, 7) {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Quote.self) { group in
            for _ in 0..<venues {
                group.addTask {
                    let adapter = try AdapterRegistry.standard.makeAdapter(
                        id: "bithumb",
                        environment: AdapterEnvironment(baseURL: server.baseURL(for: "bithumb"), http: client))
                    return try await adapter.quote(for: Market(base: "BTC", quote: "KRW"))
                }
            }
            for try await _ in group {}
        }
        walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    line(
        "   \(venues) venues",
        String(format: "%6.0f ms  wall / 300 ms = %.2f", median(walls) * 1000, median(walls) / delay))
}

// MARK: 3. Cold start

/// Runs `path` with `arguments` and returns wall seconds, exit status and peak RSS in KiB.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`), which forks a small process before
/// exec: the kernel's `ru_maxrss` of a child spawned straight from this (much larger) process
/// would count pages it shared with us before exec. The wall time is measured without it.
func spawn(_ path: String, _ arguments: [String], environment: [String: String], measureMemory: Bool) -> (
    Double, Int32, Int
) {
    let timeTool = "/usr/bin/time"
    let report = NSTemporaryDirectory() + "agg-bench-rss-\(getpid())"
    let command =
        measureMemory ? [timeTool, "-f", "%M", "-o", report, path] + arguments : [path] + arguments
    var pid: pid_t = 0
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else { return (.nan, -1, 0) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let peak =
        measureMemory
        ? (try? String(contentsOfFile: report, encoding: .utf8)).flatMap {
            Int($0.split(separator: "\n").last.map(String.init) ?? "")
        } ?? 0 : 0
    return (wall, (status >> 8) & 0xFF, peak)
}

let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("agg")
    .path
let quickServer = try FixtureServer(venues: ["bithumb"])
var environment = quickServer.environment
environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-bench-\(getpid())"
environment["PATH"] = "/usr/bin:/bin"
var starts: [Double] = []
var peaks: [Double] = []
var failures = 0
let quoteArguments = ["quote", "BTC", "--exchange", "bithumb", "--format", "json"]
let canMeasureMemory = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
for _ in 0..<runs {
    let (wall, status, _) = spawn(binary, quoteArguments, environment: environment, measureMemory: false)
    if status != 0 { failures += 1 }
    starts.append(wall)
    if canMeasureMemory {
        peaks.append(Double(spawn(binary, quoteArguments, environment: environment, measureMemory: true).2))
    }
}
print("3. Cold start of \(binary) quote BTC --exchange bithumb; median of \(runs) runs")
line("   wall time", String(format: "%6.1f ms", median(starts) * 1000))
line("   peak RSS", canMeasureMemory ? String(format: "%6.1f MB", median(peaks) / 1024) : "(needs /usr/bin/time)")
if failures > 0 { print("   \(failures) runs failed") }

// MARK: 4. Compare fan-out through the binary

let slow = 0.4
let slowServer = try FixtureServer { venue, request in
    guard let answer = try? Fixtures.routes(venue).answer(path: request.path, query: request.query) else {
        return nil
    }
    return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body, delay: slow)
}
var slowEnvironment = slowServer.environment
slowEnvironment["AGG_HOME"] = NSTemporaryDirectory() + "agg-bench-compare-\(getpid())"
slowEnvironment["PATH"] = "/usr/bin:/bin"
var compareWalls: [Double] = []
var compareFailures = 0
for _ in 0..<min(runs, 7) {
    let (wall, status, _) = spawn(
        binary, ["compare", "BTC", "--usdt", "market", "--format", "json"], environment: slowEnvironment,
        measureMemory: false)
    if status != 0 { compareFailures += 1 }
    compareWalls.append(wall)
}
let tickerVenues = AdapterRegistry.standard.descriptors(supporting: .ticker).count
print(
    "4. agg compare BTC --usdt market: \(tickerVenues) venues + FX + USDT/KRW, every answer 400 ms late; "
        + "median of \(min(runs, 7)) runs"
)
line(
    "   wall time",
    String(format: "%6.0f ms  wall / 400 ms = %.2f", median(compareWalls) * 1000, median(compareWalls) / slow))
if compareFailures > 0 { print("   \(compareFailures) runs failed") }
