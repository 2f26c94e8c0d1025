import AggCore
import AggTestKit
import AggVenues
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 4: `agg compare BTC --usdt market` through the binary, with every venue and the FX
/// source answering 400 ms late (wall / 400 ms: one round trip is 1.0).
enum CompareSection {
    static func run(_ bench: Bench) throws {
        let runs = bench.runs
        let binary = bench.binary
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
            "\(BenchSection.compare.rawValue). agg compare BTC --usdt market: \(tickerVenues) venues + FX + USDT/KRW, every answer 400 ms late; "
                + "median of \(min(runs, 7)) runs"
        )
        line(
            "   wall time",
            String(format: "%6.0f ms  wall / 400 ms = %.2f", median(compareWalls) * 1000, median(compareWalls) / slow))
        if compareFailures > 0 { print("   \(compareFailures) runs failed") }
    }
}
