import AggCore
import AggTestKit
import Foundation
import Testing

@testable import AggOptions
@testable import AggServices

#if canImport(Glibc)
    import Glibc
#endif

/// An executable shell script in a fresh directory.
private func script(_ body: String) throws -> String {
    let path = try temporaryDirectory().appendingPathComponent("hook.sh").path
    try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
}

private let sampleAlert = Alert(
    time: Timestamp(millisecondsSince1970: 1_723_104_735_000),
    rule: AlertRule(venue: "upbit", symbol: "BTC", condition: .threshold(.premium, .above, 3)), exchange: "upbit",
    reading: .number(Decimal(string: "3.12") ?? 0))

@Suite("--on-alert: the program run per alert")
struct AlertProgramTests {
    @Test("the alert's JSON line arrives on stdin; arguments are passed as given, no shell")
    func input() async throws {
        let output = try temporaryDirectory().appendingPathComponent("in $HOME; *.json").path
        let errors = BufferSink()
        let program = AlertProgram(
            path: try script(#"cat > "$1""#), arguments: [output],
            console: Console(standardOutput: BufferSink(), standardError: errors))
        program.run(sampleAlert)
        await program.finish()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == sampleAlert.json + "\n")
        #expect(errors.text.isEmpty)
    }

    @Test("the program inherits only its standard descriptors")
    func descriptors() async throws {
        let output = try temporaryDirectory().appendingPathComponent("fds").path
        let program = AlertProgram(
            path: try script(#"ls /proc/self/fd > "$1""#), arguments: [output],
            console: Console(standardOutput: BufferSink(), standardError: BufferSink()))
        program.run(sampleAlert)
        await program.finish()
        // 0-2, and the descriptor `ls` opens to read the directory.
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "0\n1\n2\n3\n")
    }

    @Test("a program that exits 1 is reported in one line")
    func failure() async throws {
        let path = try script("exit 1")
        let errors = BufferSink()
        let program = AlertProgram(
            path: path, arguments: [], console: Console(standardOutput: BufferSink(), standardError: errors))
        program.run(sampleAlert)
        await program.finish()
        #expect(errors.text == "agg: --on-alert \(path): exited with status 1\n")
    }

    /// The bounds come from what they tell apart, not from how fast this machine is now: `run`
    /// must return before the time limit (a run that waited for the program would take at least
    /// that), and `finish` within a minute after the limit, far before the 300 s the program
    /// would take if it were not killed. The limit itself is ten times what starting and reaping
    /// a program that exits at once takes here and now (at least 0.3 s, at most 30 s), so that on
    /// a loaded machine the kill is still what ends it (a fixed 15 s bound failed in CI when a
    /// start measured 1.5 s made the limit 15 s).
    @Test("a program that hangs is killed at the limit with its children, reaped, and reported; run returns at once")
    func hang() async throws {
        let clock = ContinuousClock()
        let quick = AlertProgram(
            path: try script("exit 0"), arguments: [],
            console: Console(standardOutput: BufferSink(), standardError: BufferSink()))
        let measured = clock.now
        quick.run(sampleAlert)
        await quick.finish()
        let startCost = (clock.now - measured).seconds
        let limit = min(30, max(0.3, (startCost * 100).rounded(.up) / 10))

        let children = try temporaryDirectory().appendingPathComponent("child").path
        let path = try script(#"sleep 300 & echo $! > "$1"; wait"#)
        let errors = BufferSink()
        let program = AlertProgram(
            path: path, arguments: [children], timeLimit: limit,
            console: Console(standardOutput: BufferSink(), standardError: errors))
        let started = clock.now
        program.run(sampleAlert)
        #expect((clock.now - started).seconds < limit, "run waited for the program")
        await program.finish()
        let elapsed = (clock.now - started).seconds
        #expect(elapsed >= limit && elapsed < limit + 60, "took \(elapsed) s with a limit of \(limit) s")
        #expect(errors.text == "agg: --on-alert \(path): did not finish within \(RateText.format(limit)) s: killed\n")
        // The shell's own child was in its process group: it is gone too (init reaps it).
        let child = pid_t(
            try String(contentsOfFile: children, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(child != nil)
        var gone = false
        for _ in 0..<100 where !gone {
            if let child, kill(child, 0) != 0 || isZombie(child) {
                gone = true
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(gone)
    }

    @Test("a program that cannot start is reported")
    func cannotStart() async throws {
        let path = try temporaryDirectory().appendingPathComponent("not-a-program").path
        try "plain text".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        let errors = BufferSink()
        let program = AlertProgram(
            path: path, arguments: [], console: Console(standardOutput: BufferSink(), standardError: errors))
        program.run(sampleAlert)
        await program.finish()
        #expect(errors.text == "agg: --on-alert \(path): cannot start it: Exec format error\n")
    }
}

/// Whether `pid` has ended and waits for its parent to reap it.
private func isZombie(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
}
