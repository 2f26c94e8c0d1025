import AggTestKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A one-shot `agg quote` stopped by a signal while a venue is slow, with its spinner on a
/// terminal: the spinner's line is erased and agg exits with the shell's status for the signal.
@Suite("agg quote end to end: a stop signal while a venue is slow")
struct EndToEndQuoteSignalTests {
    @Test(
        "SIGINT and SIGTERM during a one-shot quote: the spinner is erased, exit 130 and 143",
        arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func stop(signal: Int32, status: Int32) async throws {
        // Bithumb never answers: the quote waits (within --timeout 60) until the signal.
        let server = try FixtureServer(venues: ["bithumb"]) { _, _ in LoopbackReply(fault: .hang) }
        var environment = server.environment
        environment["TERM"] = "xterm"
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        let terminal = try PseudoTerminal()
        terminal.startReading()
        let (process, output, _) = try AggBinary.start(
            ["quote", "BTC", "-e", "bithumb", "-f", "json", "--timeout", "60"], environment: environment,
            standardError: terminal.terminal)
        try terminal.terminal.close()
        // The signal goes once the request has reached the venue and the spinner is drawn.
        let deadline = Date().addingTimeInterval(20)
        while server.requests.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.requests.count == 1)
        #expect(await terminal.wait(seconds: 20) { $0.contains("asking bithumb") })
        kill(process.processIdentifier, signal)
        let printed: Data = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
        #expect(await terminal.wait(seconds: 5) { $0.hasSuffix("\r\u{1B}[K") })
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(printed.isEmpty)
        // Nothing after the erase: the line is left clean.
        #expect(terminal.text.hasSuffix("…\r\u{1B}[K"))
    }
}
