// agg-bench: measures what users feel, reporting medians over repeated runs.
//
//   swift build -c release && .build/release/agg-bench [--runs N]
//
// 1. decode + normalize of Bithumb's 480-coin ALL_KRW body (ms, MB/s), against Foundation;
// 2. fan-out: N venues on a loopback server, each answering after 300 ms (wall / 300 ms);
// 3. whole-process cold start of `agg quote BTC --exchange bithumb` against the loopback
//    server (ms) and its peak RSS;
// 4. `agg compare BTC --usdt market` with every venue and the FX source answering 400 ms late
//    (wall / 400 ms: one round trip is 1.0);
// 5. market scale: `agg quote --all --exchange bithumb` (480 coins) against the one-coin run,
//    whole process, in paired runs; rendering 2,000 quotes in each format (JSON in MB/s) and
//    writing them to the quote cache, in process;
// 6. the premium board: `agg premium` over every venue's all-tickers answer and every FX source,
//    with some answers late (wall / the slowest answer), its CPU time and peak RSS; decoding
//    every venue's all-tickers answer in process (ms), and Binance's alone (MB/s).
// 7. record: `agg record --premium`'s loop over 8 venues and 3 FX sources against the loopback
//    server, ticks back to back on a clock that only moves when it sleeps: CPU a tick (→ % of a
//    core at a 10 s interval), RSS growth over 10,000 ticks (`--record-ticks N`), and the rows
//    a second the store takes.
//
// `--only 1,5` runs some sections; `--agg PATH` times another build of agg (sections 3 to 6).
import AggCLI
import AggCore
import AggDataVenues
import AggFixtures
import AggJSON
import AggStore
import AggTestKit
import AggTransport
import AggVenues
import Bithumb
import CMalloc
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// The allocator agg itself runs with (section 7 measures agg record's loop in this process).
agg_tune_malloc()
let arguments = Array(CommandLine.arguments.dropFirst())
let runs =
    arguments.firstIndex(of: "--runs").flatMap { index in
        arguments.indices.contains(index + 1) ? Int(arguments[index + 1]) : nil
    } ?? 21
let sections: Set<Int> =
    arguments.firstIndex(of: "--only").flatMap { index in
        arguments.indices.contains(index + 1)
            ? Set(arguments[index + 1].split(separator: ",").compactMap { Int($0) }) : nil
    } ?? [1, 2, 3, 4, 5, 6, 7]
let binaryArgument = arguments.firstIndex(of: "--agg").flatMap { index in
    arguments.indices.contains(index + 1) ? arguments[index + 1] : nil
}

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

/// Wall and CPU seconds of the calling thread for `body`; CPU time is steadier than wall time on a
/// machine shared with other work.
func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    func threadCPU() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
    let cpuStart = threadCPU()
    let wall = try seconds(body)
    return (wall, threadCPU() - cpuStart)
}

func line(_ name: String, _ value: String) {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0) + value)
}

let body = try Fixtures.bytes("bithumb/ticker_ALL_KRW.json")
let megabytes = Double(body.count) / 1_000_000

/// One whole-process run of a command.
struct Run {
    /// Seconds from spawn to exit.
    var wall: Double
    /// Seconds of CPU (user + system) the process used: steadier than `wall` on a machine
    /// shared with other work.
    var cpu: Double
    var status: Int32
    /// Peak resident memory in KiB, when measured.
    var peak: Int
}

/// Runs `path` with `arguments` and returns its wall and CPU seconds, exit status and peak RSS.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`), which forks a small process before
/// exec: the kernel's `ru_maxrss` of a child spawned straight from this (much larger) process
/// would count pages it shared with us before exec. The wall time is measured without it.
func spawn(_ path: String, _ arguments: [String], environment: [String: String], measureMemory: Bool) -> Run {
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
    guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else {
        return Run(wall: .nan, cpu: .nan, status: -1, peak: 0)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let cpu =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let peak =
        measureMemory
        ? (try? String(contentsOfFile: report, encoding: .utf8)).flatMap {
            Int($0.split(separator: "\n").last.map(String.init) ?? "")
        } ?? 0 : 0
    return Run(wall: wall, cpu: cpu, status: (status >> 8) & 0xFF, peak: peak)
}

let binary =
    binaryArgument
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("agg").path
let canMeasureMemory = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

// MARK: 1. Decoding

if sections.contains(1) {

    var quoteCount = 0
    let decodeTimes = try (0..<runs).map { _ in
        try seconds {
            let json = JSONCursor(try JSONParser.parse(body))
            quoteCount = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).values.count
        }
    }
    let parseTimes = try (0..<runs).map { _ in try seconds { _ = try JSONParser.parse(body) } }
    let foundationDecodeTimes = try (0..<runs).map { _ in
        try seconds { _ = try BithumbFoundationDecoding.allQuotes(body, payment: "KRW") }
    }
    let serializationTimes = try (0..<runs).map { _ in
        try seconds { _ = try JSONSerialization.jsonObject(with: Data(body)) }
    }
    func throughput(_ name: String, _ times: [Double]) {
        let value = median(times)
        line(name, String(format: "%8.3f ms  %7.1f MB/s", value * 1000, megabytes / value))
    }
    print("1. Bithumb ALL_KRW: \(body.count) bytes, \(quoteCount) quotes; median of \(runs) runs")
    throughput("   agg: parse + decode + normalize", decodeTimes)
    throughput("   agg: parse only", parseTimes)
    throughput("   Foundation JSONDecoder + Decimal(string:)", foundationDecodeTimes)
    throughput("   Foundation JSONSerialization, parse only", serializationTimes)

}

// MARK: 2. Fan-out

if sections.contains(2) {

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

}

// MARK: 3. Cold start

if sections.contains(3) {
    let quickServer = try FixtureServer(venues: ["bithumb"])
    var environment = quickServer.environment
    environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-bench-\(getpid())"
    environment["PATH"] = "/usr/bin:/bin"
    var starts: [Double] = []
    var cpus: [Double] = []
    var peaks: [Double] = []
    var failures = 0
    let quoteArguments = ["quote", "BTC", "--exchange", "bithumb", "--format", "json"]
    for _ in 0..<runs {
        let run = spawn(binary, quoteArguments, environment: environment, measureMemory: false)
        if run.status != 0 { failures += 1 }
        starts.append(run.wall)
        cpus.append(run.cpu)
        if canMeasureMemory {
            peaks.append(Double(spawn(binary, quoteArguments, environment: environment, measureMemory: true).peak))
        }
    }
    print("3. Cold start of \(binary) quote BTC --exchange bithumb; median of \(runs) runs")
    line("   wall time", String(format: "%6.1f ms  (CPU %.1f ms)", median(starts) * 1000, median(cpus) * 1000))
    line("   peak RSS", canMeasureMemory ? String(format: "%6.1f MB", median(peaks) / 1024) : "(needs /usr/bin/time)")
    if failures > 0 { print("   \(failures) runs failed") }

}

// MARK: 4. Compare fan-out through the binary

if sections.contains(4) {

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
        let run = spawn(
            binary, ["compare", "BTC", "--usdt", "market", "--format", "json"], environment: slowEnvironment,
            measureMemory: false)
        if run.status != 0 { compareFailures += 1 }
        compareWalls.append(run.wall)
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
}

// MARK: 5. Market scale

if sections.contains(5) {
    let server = try FixtureServer(venues: ["bithumb"])
    var environment = server.environment
    environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-bench-market-\(getpid())"
    environment["PATH"] = "/usr/bin:/bin"
    let one = ["quote", "BTC", "--exchange", "bithumb", "--format", "json"]
    let all = ["quote", "--all", "--exchange", "bithumb", "--format", "json"]
    // Paired runs: each pair runs both commands back to back, in alternating order, so that a
    // slower moment of a shared machine weighs on both.
    var oneRuns: [Run] = []
    var allRuns: [Run] = []
    var allPeaks: [Double] = []
    var failures = 0
    for pair in 0..<runs {
        let order = pair % 2 == 0 ? [one, all] : [all, one]
        for command in order {
            let run = spawn(binary, command, environment: environment, measureMemory: false)
            if run.status != 0 { failures += 1 }
            if command == one { oneRuns.append(run) } else { allRuns.append(run) }
        }
        if canMeasureMemory {
            allPeaks.append(Double(spawn(binary, all, environment: environment, measureMemory: true).peak))
        }
    }
    func figures(_ runs: [Run]) -> String {
        String(format: "%6.1f ms  (CPU %.1f ms)", median(runs.map(\.wall)) * 1000, median(runs.map(\.cpu)) * 1000)
    }
    let wallRatio = median(zip(allRuns, oneRuns).map { $0.wall / $1.wall })
    let cpuRatio = median(zip(allRuns, oneRuns).map { $0.cpu / $1.cpu })
    print("5. Market scale; median of \(runs) runs")
    line("   agg quote BTC -e bithumb (one coin)", figures(oneRuns))
    line("   agg quote --all -e bithumb (480 coins)", figures(allRuns))
    line(
        "   --all / one coin, paired runs",
        String(format: "%6.2f ×  (CPU %.2f ×)", wallRatio, cpuRatio))
    if canMeasureMemory {
        line("   peak RSS of --all", String(format: "%6.1f MB", median(allPeaks) / 1024))
    }
    if failures > 0 { print("   \(failures) runs failed") }

    // 2,000 quotes, the size of Binance's whole market: the 480 recorded Bithumb quotes, repeated
    // under five venue names (sample data built from the recording).
    let json = JSONCursor(try JSONParser.parse(body))
    let recorded = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).values
        .sorted { $0.market < $1.market }
    let quotes = (0..<2000).map { index in
        var quote = recorded[index % recorded.count]
        quote.exchange = "venue\(index / recorded.count)"
        return quote
    }
    let output = QuoteOutput(quotes)
    for format in [OutputFormat.json, .csv, .table] {
        // One untimed run first: the first use of the heap's larger blocks is not what is measured.
        // What agg hands to standard output: JSON as the bytes it is written into, the others as
        // the text they are built as.
        func render() -> Int {
            format == .json ? output.jsonBytes().count : output.text(format: format).utf8.count
        }
        var size = render()
        let times = (0..<runs).map { _ in timed { size = render() } }
        let wall = median(times.map(\.wall))
        let cpu = median(times.map(\.cpu))
        line(
            "   render 2,000 quotes as \(format.rawValue)",
            String(
                format: "%7.2f ms  %7.1f MB/s  (CPU %.2f ms, %.1f MB/s; %d bytes)", wall * 1000,
                Double(size) / 1e6 / wall, cpu * 1000, Double(size) / 1e6 / cpu, size))
    }

    let folder = NSTemporaryDirectory() + "agg-bench-cache-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/agg.sqlite"
    var fetchedAt = Timestamp(millisecondsSince1970: 1_723_104_735_027)
    // The first write creates the rows; every timed one replaces them, as a refresh does.
    try Store.open(path: path).cacheQuotes(quotes, fetchedAt: fetchedAt)
    let store = try Store.open(path: path)
    func report(_ name: String, _ times: [(wall: Double, cpu: Double)]) {
        line(
            name,
            String(format: "%7.2f ms  (CPU %.2f ms)", median(times.map(\.wall)) * 1000, median(times.map(\.cpu)) * 1000)
        )
    }
    let writeTimes = try (0..<runs).map { _ in
        fetchedAt = Timestamp(millisecondsSince1970: fetchedAt.millisecondsSince1970 + 1000)
        return try timed { try store.cacheQuotes(quotes, fetchedAt: fetchedAt) }
    }
    report("   cache write of 2,000 quotes", writeTimes)
    // What one run of agg pays: open the database, write, close it.
    let sessionTimes = try (0..<runs).map { _ in
        fetchedAt = Timestamp(millisecondsSince1970: fetchedAt.millisecondsSince1970 + 1000)
        return try timed { try Store.open(path: path).cacheQuotes(quotes, fetchedAt: fetchedAt) }
    }
    report("   open + cache write of 2,000 + close", sessionTimes)
}

// MARK: 6. The premium board

/// Answers each request from the recordings once, then from memory: decoding is timed without
/// reading files.
final class MemoizedHTTPClient: HTTPClient {
    let recorded: OfflineHTTPClient
    private let answers = Mutex<[String: HTTPResponse]>([:])

    init(_ recorded: OfflineHTTPClient) { self.recorded = recorded }

    /// The size of every answer held, in bytes.
    var recordedBytes: Int { answers.withLock { $0.values.reduce(0) { $0 + $1.body.count } } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let answer = answers.withLock({ $0[request.url] }) { return answer }
        let answer = try recorded.response(to: request)
        answers.withLock { $0[request.url] = answer }
        return answer
    }
}

/// Wall and CPU seconds of an async `body`. The CPU time is the whole process's (user + system,
/// every thread: the awaited work may run on any of the pool's), steadier than wall time on a
/// machine shared with other work; nothing else in this process runs meanwhile.
func asyncTimed(_ body: () async throws -> Void) async rethrows -> (wall: Double, cpu: Double) {
    func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let cpuStart = processCPU()
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (wall, processCPU() - cpuStart)
}

if sections.contains(6) {
    // The venues of the board, as `agg premium` picks them: an all-tickers request quoted in KRW
    // (local) or in a dollar currency (global); the data venues in Plugins/DataVenues included.
    let registry = DataVenueLoader.load(into: .standard, shipped: [DataVenueDirectory.checkout], user: nil).registry
    let boardVenues = registry.descriptors(supporting: .allTickers).filter {
        $0.quoteCurrencies.contains("KRW") || PremiumBoard.globalQuotes.contains($0.homeCurrency)
    }
    let fxSources = registry.descriptors(supporting: .fxRates).map(\.id)

    // Some answers late: the largest (Binance's) and Upbit's 400 ms, Kraken's and OKX's 200 ms,
    // exchangerate's 300 ms; the others at once. One round trip of the slowest is 400 ms.
    let late: [String: Double] = ["binance": 0.4, "upbit": 0.4, "kraken": 0.2, "okx": 0.2, "exchangerate": 0.3]
    let slowest = late.values.max() ?? 0
    var lateRoutes: [String: FixtureRoutes] = [:]
    for venue in late.keys { lateRoutes[venue] = try Fixtures.routes(venue) }
    let preloaded = lateRoutes
    let lateServer = try FixtureServer { venue, request in
        guard let delay = late[venue], let routes = preloaded[venue],
            let answer = try? routes.answer(path: request.path, query: request.query)
        else { return nil }
        return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body, delay: delay)
    }
    let quickServer = try FixtureServer()
    func boardEnvironment(_ server: FixtureServer) -> [String: String] {
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-bench-board-\(getpid())"
        environment["PATH"] = "/usr/bin:/bin"
        return environment
    }
    let board = ["premium", "--format", "json"]
    var lateRuns: [Run] = []
    var quickRuns: [Run] = []
    var peaks: [Double] = []
    var failures = 0
    for _ in 0..<runs {
        for (server, isLate) in [(lateServer, true), (quickServer, false)] {
            let run = spawn(binary, board, environment: boardEnvironment(server), measureMemory: false)
            if run.status != 0 { failures += 1 }
            if isLate { lateRuns.append(run) } else { quickRuns.append(run) }
        }
        if canMeasureMemory {
            peaks.append(
                Double(spawn(binary, board, environment: boardEnvironment(quickServer), measureMemory: true).peak))
        }
    }
    let lateWall = median(lateRuns.map(\.wall))
    print(
        "6. agg premium (the whole board): \(boardVenues.count) venues' all-tickers + \(fxSources.count) FX sources; "
            + "median of \(runs) runs")
    line(
        "   some answers late, the slowest 400 ms",
        String(
            format: "%6.0f ms  wall / %.0f ms = %.2f  (CPU %.1f ms)", lateWall * 1000, slowest * 1000,
            lateWall / slowest, median(lateRuns.map(\.cpu)) * 1000))
    line(
        "   every answer at once",
        String(
            format: "%6.1f ms  (CPU %.1f ms)", median(quickRuns.map(\.wall)) * 1000,
            median(quickRuns.map(\.cpu)) * 1000))
    if canMeasureMemory { line("   peak RSS", String(format: "%6.1f MB", median(peaks) / 1024)) }
    if failures > 0 { print("   \(failures) runs failed") }

    // Decoding in process: each venue's adapter on its recorded all-tickers answer, served from
    // memory (the first, untimed pass reads the recordings).
    var adapters: [(id: String, currency: String, adapter: any ExchangeAdapter, bytes: Int)] = []
    for descriptor in boardVenues {
        let base = "https://\(descriptor.id).recorded"
        let client = MemoizedHTTPClient(OfflineHTTPClient(routes: try Fixtures.routes(descriptor.id), baseURL: base))
        let adapter = try registry.makeAdapter(
            id: descriptor.id, environment: AdapterEnvironment(baseURL: base, http: client))
        let currency = descriptor.quoteCurrencies.contains("KRW") ? "KRW" : descriptor.homeCurrency
        _ = try await adapter.allQuotes(quotedIn: currency)
        let bytes = client.recordedBytes
        adapters.append((descriptor.id, currency, adapter, bytes))
    }
    var quoteCount = 0
    var allTimes: [(wall: Double, cpu: Double)] = []
    for _ in 0..<runs {
        allTimes.append(
            try await asyncTimed {
                quoteCount = 0
                for venue in adapters {
                    quoteCount += try await venue.adapter.allQuotes(quotedIn: venue.currency).count
                }
            })
    }
    let totalBytes = adapters.reduce(0) { $0 + $1.bytes }
    func decodeLine(_ name: String, _ times: [(wall: Double, cpu: Double)], bytes: Int, detail: String) {
        let wall = median(times.map(\.wall))
        let cpu = median(times.map(\.cpu))
        line(
            name,
            String(
                format: "%7.2f ms  %7.1f MB/s  (CPU %.2f ms, %.1f MB/s; ", wall * 1000, Double(bytes) / 1e6 / wall,
                cpu * 1000, Double(bytes) / 1e6 / cpu) + detail + ")")
    }
    decodeLine(
        "   decode all \(adapters.count) all-tickers answers", allTimes, bytes: totalBytes,
        detail: "\(quoteCount) quotes, \(totalBytes) bytes")
    if let binance = adapters.first(where: { $0.id == "binance" }) {
        var times: [(wall: Double, cpu: Double)] = []
        for _ in 0..<runs {
            times.append(try await asyncTimed { _ = try await binance.adapter.allQuotes(quotedIn: binance.currency) })
        }
        decodeLine(
            "   decode Binance's all-tickers answer", times, bytes: binance.bytes, detail: "\(binance.bytes) bytes")
    }
}

// MARK: 7. Record

/// Resident memory of this process, in KiB (`VmRSS` in /proc/self/status).
func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// CPU seconds (user + system) of this whole process.
func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Seconds of time that only moves when the recorder sleeps: ticks run back to back.
final class BenchClock: Sendable {
    private let milliseconds = Mutex(Int64(1_800_000_000_000))

    var recorder: RecorderClock {
        RecorderClock(
            now: { Timestamp(millisecondsSince1970: self.milliseconds.withLock { $0 }) },
            sleep: { seconds in self.milliseconds.withLock { $0 += Int64((seconds * 1000).rounded()) } },
            retry: RetryClock(
                now: { Double(self.milliseconds.withLock { $0 }) / 1000 }, sleep: { _ in }, random: { 0.5 }))
    }
}

if sections.contains(7) {
    let venues = ["bithumb", "upbit", "binance", "okx", "kraken", "coinone", "korbit", "gopax"]
    let fx = ["exchangerate", "frankfurter", "dunamu"]
    let server = try FixtureServer(venues: venues + fx)
    defer { server.stop() }
    let home = NSTemporaryDirectory() + "agg-bench-record-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: home) }
    var environment = server.environment
    environment["AGG_HOME"] = home
    let registry = DataVenueLoader.load(
        into: .standard, shipped: [DataVenueDirectory.checkout], user: nil
    ).registry
    let context = CLIContext(
        registry: registry, environment: environment,
        console: Console(
            standardOutput: BufferSink(), standardError: BufferSink(), outputIsTerminal: false,
            errorIsTerminal: false, width: 80),
        makeHTTPClient: { timeouts in CurlHTTPClient(timeouts: timeouts) })
    let ticks =
        arguments.firstIndex(of: "--record-ticks").flatMap { index in
            arguments.indices.contains(index + 1) ? Int(arguments[index + 1]) : nil
        } ?? 10_000
    let clock = BenchClock()
    let options = try NetworkOptions(try ArgumentParser.parse([], spec: RecordCommand.spec), context: context)
    let plan = try RecordService.plan(
        symbols: [], exchanges: ExchangeSelection(ids: venues, explicit: true), premium: true, interval: 10,
        registry: registry)
    // A minute of retention at 10 s a tick: pruning runs as it does in a long run.
    var settings = RecordService.Settings(interval: 10, venueDeadline: 8, retainSeconds: 60)
    settings.pruneEveryTicks = 6
    let service = RecordService(
        factory: AdapterFactory(context: context, options: options, clock: clock.recorder.retry),
        store: try Store.open(environment: environment), clock: clock.recorder, holder: "bench:\(getpid())",
        settings: settings)

    /// What `count` ticks took: CPU seconds of each tick, rows stored, failures. A struct, not a
    /// tuple, as the result of an async function (the release-miscompile rule).
    struct Ticks {
        var cpu: [Double]
        var rows: Int
        var failures: Int
    }

    /// Runs `count` ticks.
    func record(_ count: Int) async -> Ticks {
        let samples = Mutex<(cpu: [Double], last: Double)>(([], processCPU()))
        let totals = await service.run(plan, count: count, interrupts: AsyncStream { _ in }) { report, _ in
            let now = processCPU()
            // The loopback server runs in this process: its log of requests must not count as
            // the recorder's memory.
            server.forgetRequests()
            if report.number % 1000 == 0 {
                print(String(format: "   (RSS at tick %d: %.1f MB)", report.number, Double(residentKiB()) / 1024))
            }
            samples.withLock { state in
                state.cpu.append(now - state.last)
                state.last = now
            }
        }
        return Ticks(cpu: samples.withLock { $0.cpu }, rows: totals.rows, failures: totals.failures)
    }

    let warmUp = await record(50)
    let rssBefore = residentKiB()
    let started = DispatchTime.now().uptimeNanoseconds
    let steady = await record(ticks)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let rssAfter = residentKiB()
    let cpuPerTick = median(steady.cpu)
    print(
        "7. Record: \(venues.count) venues + \(fx.count) FX sources with --premium, loopback server, ticks back to back"
    )
    line(
        "   rows a tick",
        "\(steady.rows / max(1, ticks)) (\(steady.failures + warmUp.failures) failures in \(ticks + 50) ticks)")
    line(
        "   CPU a tick, median of \(ticks)",
        String(
            format: "%6.2f ms  = %.2f%% of a core at a 10 s interval", cpuPerTick * 1000,
            cpuPerTick * 1000 / 10_000 * 100))
    line(
        "   RSS after 50 ticks → after \(ticks) more",
        String(
            format: "%6.1f MB → %.1f MB (growth %.1f MB)", Double(rssBefore) / 1024, Double(rssAfter) / 1024,
            Double(rssAfter - rssBefore) / 1024))
    line("   wall for \(ticks) ticks", String(format: "%6.1f s", wall))

    // The store alone: ticks of 2,000 prices and 60 premiums written one transaction each.
    let storeFolder = NSTemporaryDirectory() + "agg-bench-history-\(getpid())"
    try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: storeFolder) }
    let historyStore = try Store.open(path: storeFolder + "/agg.sqlite")
    let json = JSONCursor(try JSONParser.parse(body))
    let recorded = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).values
    var rowsPerSecond: [Double] = []
    for index in 0..<max(runs, 5) {
        let time = Timestamp(millisecondsSince1970: 1_800_000_000_000 + Int64(index) * 10_000)
        let prices = (0..<2000).map { index in
            let quote = recorded[index % recorded.count]
            return PricePoint(
                time: time, exchange: "venue\(index / recorded.count)", market: quote.market, last: quote.last,
                baseVolume: quote.baseVolume)
        }
        let premiums = (0..<60).map { index in
            PremiumPoint(
                time: time, exchange: "venue\(index % 3)", symbol: recorded[index].market.base, basis: "usd",
                fxSource: "exchangerate", percent: Decimal(index) / 100)
        }
        let tick = RecordedTick(time: time, prices: prices, premiums: premiums)
        let start = DispatchTime.now().uptimeNanoseconds
        try await historyStore.record(tick)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        rowsPerSecond.append(Double(prices.count + premiums.count) / seconds)
    }
    line("   store: rows/s, ticks of 2,060 rows", String(format: "%8.0f rows/s", median(rowsPerSecond)))
}
