import AggCore
import AggJSON
import AggOptions
import AggServices
import AggStore
import AggTestKit
import Bithumb
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 5: market scale. `agg quote --all -e bithumb` (480 coins) against the one-coin run in
/// paired runs, alternating which goes first (wall, CPU and their ratios); then, in process,
/// 2,000 quotes rendered in each format and written to the quote cache.
enum MarketScaleSection {
    static func run(_ bench: Bench) throws {
        let runs = bench.runs
        let binary = bench.binary
        let canMeasureMemory = bench.canMeasureMemory
        let body = bench.body
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
        print("\(BenchSection.marketScale.rawValue). Market scale; median of \(runs) runs")
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
        // Aged at the latest of their times, so that every run renders the same bytes.
        let now = quotes.compactMap(\.timestamp).max() ?? Timestamp(millisecondsSince1970: 0)
        let output = QuoteOutput(quotes, now: now)
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
                String(
                    format: "%7.2f ms  (CPU %.2f ms)", median(times.map(\.wall)) * 1000, median(times.map(\.cpu)) * 1000
                )
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
}
