import AggCore
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions
@testable import AggServices

/// Issue 20: at `--interval 1` an FX source's HTTP 500 was reported as a timeout (its retries
/// outlived the venue's deadline), and a hung venue used 80-89 % of the interval. Each venue now
/// has half the interval, its requests' budget included, and the venue's last answer stands.
@Suite("agg record: each venue's share of the tick")
struct RecordDeadlineTests {
    let loop = RecordServiceTests()

    /// The harness's schedule and wall clock, with real waits for retries (the HTTP budget is
    /// real time, as the transport's is).
    private func run(_ arguments: [String], harness: RecordServiceTests.Harness) async throws -> String {
        let error = BufferSink()
        var context = harness.context
        context.console = Console(
            standardOutput: BufferSink(), standardError: error, outputIsTerminal: false, errorIsTerminal: false,
            width: 100)
        let parsed = try ArgumentParser.parse(arguments, spec: RecordCommand.spec)
        let fake = harness.clock.recorder
        _ = try await RecordCommand.run(
            parsed, context: context, clock: RecorderClock(now: fake.now, sleep: fake.sleep, retry: .system))
        return error.text
    }

    /// Each answer takes 2 s: the first 500 comes at 2 s of the venue's 4 s (half of
    /// `--interval 8`), and with two retries (waits of 0.125-0.25 s and 0.25-0.5 s) the attempts
    /// would end after 6.4 s, past the venue's deadline, which cuts them. (At `--interval 2` with
    /// 0.5 s answers, a loaded CI run got its first answer after the 1 s deadline: a timeout.)
    @Test("an FX source answering HTTP 500 slowly is reported as HTTP 500 at --interval 8, not as a timeout")
    func fxErrorNotTimeout() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"]) { venue, _ in
            venue == "exchangerate" ? LoopbackReply.status(500).delayed(by: 2) : nil
        }
        defer { harness.cleanUp() }
        let error = try await run(["--count", "1", "--interval", "8", "--quiet"], harness: harness)
        let lines = error.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("agg: record: exchangerate: HTTP 500 from ") == true, "\(lines)")
    }

    @Test("a hung venue has half the interval: its timeout names 1 s at --interval 2 (1.6 s before)")
    func hungVenueShare() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "korbit", "exchangerate"]) { venue, _ in
            venue == "korbit" ? LoopbackReply.json("{}").delayed(by: 10) : nil
        }
        defer { harness.cleanUp() }
        let started = ContinuousClock.now
        let error = try await run(["--count", "1", "--interval", "2", "--quiet"], harness: harness)
        #expect(ContinuousClock.now - started < .seconds(9))
        let lines = error.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("agg: record: korbit: no answer within 1 s from ") == true, "\(lines)")
        #expect(RecordRequest.venueDeadline(interval: 1, timeout: 10) == 0.5)
        #expect(RecordRequest.venueDeadline(interval: 60, timeout: 10) == 10)
    }
}
