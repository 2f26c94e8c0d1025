import AggCore
import AggServer
import AggTestKit
import Foundation
import Testing

@testable import AggServe

/// What a flood of expensive requests leaves in memory, with and without giving the heap's free
/// memory back after the burst. A measurement, not a check: it runs only with
/// `AGG_BENCH_SERVE_MEMORY=1`, alone and one case after the other (RSS is the whole process's),
/// and prints its figures.
@Suite("agg serve: memory after a burst (bench)", .serialized)
struct ServeMemoryBench {
    /// The process's resident set, in KB (`VmRSS` of /proc/self/status).
    static func residentKB() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    @Test(
        "RSS before, after a flood of 128 distinct 200-symbol compares, and once the burst ended",
        .enabled(if: ProcessInfo.processInfo.environment["AGG_BENCH_SERVE_MEMORY"] == "1"),
        arguments: [false, true])
    func burst(returnsMemory: Bool) async throws {
        var limits = ServeLimits.standard
        limits.returnsMemory = returnsMemory
        let harness = try ServeHarness(work: limits)
        await harness.poll()
        let port = harness.port
        let before = Self.residentKB()
        var statuses: [Int: Int] = [:]
        for round in 0..<3 {
            let answers = await withTaskGroup(of: Int.self) { group in
                for index in 0..<128 {
                    group.addTask {
                        let symbols = (0..<200).map { "Z\(round)R\(index)X\($0)" }.joined(separator: ",")
                        return (try? await RawHTTPClient.get(port: port, "/v1/compare?symbol=" + symbols).status) ?? 0
                    }
                }
                var answers: [Int] = []
                for await status in group { answers.append(status) }
                return answers
            }
            for status in answers { statuses[status, default: 0] += 1 }
        }
        let afterBurst = Self.residentKB()
        while harness.runtime.app.work.running > 0 { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(200))
        let settled = Self.residentKB()
        print(
            "serve memory bench (malloc_trim \(returnsMemory ? "on" : "off")): RSS before \(before / 1024) MB, "
                + "after the flood \(afterBurst / 1024) MB, burst ended \(settled / 1024) MB; statuses \(statuses.sorted { $0.key < $1.key })"
        )
        #expect(statuses.keys.allSatisfy { $0 == 200 || $0 == 503 })
    }
}
