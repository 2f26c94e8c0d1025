import AggTestKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `agg watch` on a terminal (a pseudo-terminal) stopped by a signal: the cursor comes back and
/// attributes are reset, whatever stops it, and the exit status is the documented 0.
@Suite("agg watch end to end: stop signals restore the terminal")
struct EndToEndWatchSignalTests {
    static let hideCursor = "\u{1B}[?25l"
    static let restore = "\u{1B}[0m\u{1B}[?25h"

    /// Starts `agg watch BTC` against the recordings on a pseudo-terminal (through `shell` when
    /// given), waits for its first frame, sends `signal`, and returns what the terminal showed
    /// and how the process ended.
    func watch(stoppedBy signal: Int32, shell: String? = nil, before: Int32? = nil) async throws
        -> (text: String, reason: Process.TerminationReason, status: Int32)
    {
        let terminal = try PseudoTerminal()
        terminal.startReading()
        let arguments = ["watch", "BTC", "-e", "bithumb", "-i", "30", "--offline"]
        let environment = [
            "AGG_FIXTURES": Fixtures.directory.path, "TERM": "xterm",
            "AGG_HOME": try temporaryDirectory().appendingPathComponent("home").path,
        ]
        let (process, _, error): (Process, Pipe, Pipe)
        if let shell {
            // The shell sets the disposition the way nohup does, then becomes agg.
            (process, _, error) = try AggBinary.start(
                ["-c", shell + "; exec \"$0\" \"$@\"", AggBinary.url.path] + arguments, environment: environment,
                standardOutput: terminal.terminal, executable: "/bin/sh")
        } else {
            (process, _, error) = try AggBinary.start(
                arguments, environment: environment, standardOutput: terminal.terminal)
        }
        try terminal.terminal.close()
        #expect(await terminal.wait(seconds: 10) { $0.contains("bithumb   BTC/KRW") })
        if let before {
            kill(process.processIdentifier, before)
            try await Task.sleep(for: .milliseconds(300))
            #expect(process.isRunning, "a signal the caller ignores must not stop watch")
        }
        kill(process.processIdentifier, signal)
        let ended: Void = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                _ = error.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume()
            }
        }
        _ = ended
        _ = await terminal.wait(seconds: 5) { $0.hasSuffix(Self.restore) }
        return (terminal.text, process.terminationReason, process.terminationStatus)
    }

    @Test(
        "SIGTERM, SIGHUP and SIGINT each end watch cleanly: cursor shown, attributes reset, exit 0",
        arguments: [SIGTERM, SIGHUP, SIGINT])
    func stopSignal(signal: Int32) async throws {
        let (text, reason, status) = try await watch(stoppedBy: signal)
        #expect(text.hasPrefix(Self.hideCursor))
        #expect(text.hasSuffix(Self.restore))
        #expect(reason == .exit)
        #expect(status == 0)
    }

    @Test("under nohup (SIGHUP ignored) a hangup does not stop watch; SIGTERM still does, cleanly")
    func ignoredHangup() async throws {
        let (text, reason, status) = try await watch(stoppedBy: SIGTERM, shell: "trap '' HUP", before: SIGHUP)
        #expect(text.hasSuffix(Self.restore))
        #expect(reason == .exit)
        #expect(status == 0)
    }
}
