import AggCore
import AggDataVenues
import AggFixtures
import AggTestKit
import AggVenues
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Section 6: the premium board. `agg premium --format json` over every venue's all-tickers answer
/// and every FX source, with some answers late and with every answer at once (wall, CPU, peak
/// RSS); then, in process, every venue's recorded all-tickers answer decoded by its adapter,
/// and Binance's alone.
enum PremiumBoardSection {
    static func run(_ bench: Bench) async throws {
        let runs = bench.runs
        let binary = bench.binary
        let canMeasureMemory = bench.canMeasureMemory
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
            "\(BenchSection.premiumBoard.rawValue). agg premium (the whole board): \(boardVenues.count) venues' all-tickers + \(fxSources.count) FX sources; "
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
        var adapters: [(id: String, currency: String, adapter: any VenueAdapter, bytes: Int)] = []
        for descriptor in boardVenues {
            let base = "https://\(descriptor.id).recorded"
            let client = MemoizedHTTPClient(
                OfflineHTTPClient(routes: try Fixtures.routes(descriptor.id), baseURL: base))
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
                times.append(
                    try await asyncTimed { _ = try await binance.adapter.allQuotes(quotedIn: binance.currency) })
            }
            decodeLine(
                "   decode Binance's all-tickers answer", times, bytes: binance.bytes, detail: "\(binance.bytes) bytes")
        }
    }
}

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
