import AggCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// What every section measures with: medians, timers of the calling thread and of the process,
// and whole-process runs of agg with their CPU time and peak memory.

/// The median of `values` (the mean of the middle two for an even count); NaN for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Wall seconds of `body`.
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

/// One line of a section's report: the name padded to 48 columns, then the figures.
func line(_ name: String, _ value: String) {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0) + value)
}

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

/// Wall and CPU seconds of an async `body`. The CPU time is the whole process's (user + system,
/// every thread: the awaited work may run on any of the pool's), steadier than wall time on a
/// machine shared with other work; nothing else in this process runs meanwhile.
func asyncTimed(_ body: () async throws -> Void) async rethrows -> (wall: Double, cpu: Double) {
    let cpuStart = processCPU()
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (wall, processCPU() - cpuStart)
}

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
