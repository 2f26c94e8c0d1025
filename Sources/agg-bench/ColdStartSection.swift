import AggTestKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 3: cold start. The whole process of `agg quote BTC --exchange bithumb` against the
/// loopback server: wall and CPU time, and peak RSS (GNU time).
enum ColdStartSection {
    static func run(_ bench: Bench) throws {
        let runs = bench.runs
        let binary = bench.binary
        let canMeasureMemory = bench.canMeasureMemory
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
        print(
            "\(BenchSection.coldStart.rawValue). Cold start of \(binary) quote BTC --exchange bithumb; median of \(runs) runs"
        )
        line("   wall time", String(format: "%6.1f ms  (CPU %.1f ms)", median(starts) * 1000, median(cpus) * 1000))
        line(
            "   peak RSS", canMeasureMemory ? String(format: "%6.1f MB", median(peaks) / 1024) : "(needs /usr/bin/time)"
        )
        if failures > 0 { print("   \(failures) runs failed") }
    }
}
