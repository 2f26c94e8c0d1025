import AggTestKit
import Foundation

/// What every section works with: the options, the agg executable the whole-process sections
/// run, and Bithumb's recorded 480-coin ALL_KRW answer.
struct Bench {
    /// How many times each measurement repeats.
    let runs: Int
    /// Measured ticks of section 7.
    let recordTicks: Int
    /// The agg executable sections 3 to 6 run.
    let binary: String
    /// Whether GNU time is there to measure peak RSS.
    let canMeasureMemory: Bool
    /// Bithumb's ALL_KRW answer, recorded.
    let body: [UInt8]

    var megabytes: Double { Double(body.count) / 1_000_000 }

    init(_ options: BenchOptions, executable: String) throws {
        runs = options.runs
        recordTicks = options.recordTicks
        binary =
            options.agg
            ?? URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("agg").path
        canMeasureMemory = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        body = try Fixtures.bytes("bithumb/ticker_ALL_KRW.json")
    }
}
