import AggCore
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import AggCLI
@testable import AggServe
@testable import AggServices

/// Rule 5: FX sources are asked only when due, in every mode. One policy (`FXSchedule`) decides;
/// `agg serve`, `premium --watch` and `record` each ask the loopback server only when it says,
/// on an injected clock, and the requests are counted.
@Suite("FX sources asked only when due")
struct FXScheduleTests {
    static let start = Timestamp(secondsSince1970: 1_800_000_000)

    static func table(asOf: Int64, nextUpdate: Int64?) -> RateTable {
        RateTable(
            source: "fx", base: "USD", rates: ["KRW": 1300], asOf: Timestamp(secondsSince1970: asOf),
            nextUpdate: nextUpdate.map(Timestamp.init(secondsSince1970:)))
    }

    static func at(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: start.millisecondsSince1970 + seconds * 1000)
    }

    /// The first moment (in whole seconds from `start`, up to `limit`) the source is due.
    static func nextDue(_ schedule: FXSchedule, after seconds: Int64, limit: Int64 = 10_000) -> Int64? {
        (seconds...limit).first { schedule.isDue("fx", at: at($0)) }
    }

    @Test("a table is reused until its next update, at least a minute and at most five minutes")
    func afterATable() {
        var schedule = FXSchedule()
        #expect(schedule.isDue("fx", at: Self.at(0)))
        // Next update in two minutes: due then.
        schedule.record("fx", .success(Self.table(asOf: 1_799_999_000, nextUpdate: 1_800_000_120)), at: Self.at(0))
        #expect(Self.nextDue(schedule, after: 0) == 120)
        // Next update in a day: due after five minutes.
        schedule.record("fx", .success(Self.table(asOf: 1_800_000_000, nextUpdate: 1_800_086_400)), at: Self.at(120))
        #expect(Self.nextDue(schedule, after: 120) == 420)
        // Next update in ten seconds: not before a minute.
        schedule.record("fx", .success(Self.table(asOf: 1_800_000_400, nextUpdate: 1_800_000_430)), at: Self.at(420))
        #expect(Self.nextDue(schedule, after: 420) == 480)
        // No next update: five minutes.
        schedule.record("fx", .success(Self.table(asOf: 1_800_000_400, nextUpdate: nil)), at: Self.at(480))
        #expect(Self.nextDue(schedule, after: 480) == 780)
    }

    @Test("a provider late with its update is asked after 60, 120, 240 s, then every 300 s")
    func lateProvider() {
        var schedule = FXSchedule()
        var time: Int64 = 0
        var waits: [Int64] = []
        for _ in 0..<5 {
            schedule.record(
                "fx", .success(Self.table(asOf: 1_700_000_000, nextUpdate: 1_700_086_400)), at: Self.at(time))
            let next = Self.nextDue(schedule, after: time) ?? -1
            waits.append(next - time)
            time = next
        }
        #expect(waits == [60, 120, 240, 300, 300])
    }

    @Test("failures back off from a minute, doubling, to half an hour; Retry-After is honoured; a table resets")
    func failures() {
        var schedule = FXSchedule()
        var time: Int64 = 0
        var waits: [Int64] = []
        let failure = AggError.http(venue: "fx", status: 500, url: "http://127.0.0.1/fx")
        for _ in 0..<7 {
            schedule.record("fx", .failure(failure), at: Self.at(time))
            let next = Self.nextDue(schedule, after: time) ?? -1
            waits.append(next - time)
            time = next
        }
        #expect(waits == [60, 120, 240, 480, 960, 1_800, 1_800])
        #expect(schedule.entry("fx")?.lastError == failure)
        schedule.record("fx", .success(Self.table(asOf: 1_800_009_000, nextUpdate: nil)), at: Self.at(time))
        #expect(Self.nextDue(schedule, after: time).map { $0 - time } == 300)
        schedule.record("fx", .failure(.rateLimited(venue: "fx", retryAfterSeconds: 1_200)), at: Self.at(time))
        #expect(Self.nextDue(schedule, after: time).map { $0 - time } == 1_200)
        // The last table is kept through failures.
        #expect(schedule.tables.map(\.asOf) == [Timestamp(secondsSince1970: 1_800_009_000)])
    }

    /// ExchangeRate-API's quota error, with HTTP 200 as it sends it.
    static let quotaReached = LoopbackReply.json(#"{"result":"error","error-type":"quota-reached"}"#)

    @Test("serve: a table past its next update is not asked again on every poll (13 polls, 2 requests)")
    func serveLateTable() async throws {
        let clock = FakeClock()
        let harness = try ServeHarness(
            registry: fixedRegistry(["binance", "exchangerate"]), now: { clock.now })
        for _ in 0..<13 {
            await harness.poll()
            clock.advance(5)
        }
        // Polls at 0, 5, ... 60 s. The recorded table's next update (2024) has passed: asked at
        // 0 s and again at 60 s, not 13 times.
        #expect(harness.fixtures.requests.filter { $0.path.hasPrefix("/exchangerate/") }.count == 2)
        #expect(harness.fixtures.requests.filter { $0.path.hasPrefix("/binance/") }.count == 13)
        // The table is still served between requests.
        #expect(harness.runtime.poller.snapshot.map { $0.isUp("exchangerate") } == true)
    }

    @Test("serve: a failing FX source is asked again after the backoff, not on every poll")
    func serveFailingSource() async throws {
        let clock = FakeClock()
        let harness = try ServeHarness(
            registry: fixedRegistry(["binance", "exchangerate"]), now: { clock.now },
            override: { venue, _ in venue == "exchangerate" ? Self.quotaReached : nil })
        for _ in 0..<40 {
            await harness.poll()
            clock.advance(5)
        }
        // 200 s of polls: asked at 0, 60 and 180 s.
        #expect(harness.fixtures.requests.filter { $0.path.hasPrefix("/exchangerate/") }.count == 3)
        #expect(harness.runtime.poller.snapshot.map { $0.isUp("exchangerate") } == false)
    }

    @Test("record: a failing FX source is asked again after the backoff, not every tick")
    func recordFailingSource() async throws {
        let harness = try RecordServiceTests.Harness(
            override: { venue, _ in venue == "exchangerate" ? Self.quotaReached : nil })
        defer { harness.cleanUp() }
        let service = try harness.service()
        let reports = RecordServiceTests.Reports()
        _ = await service.run(try harness.plan(), count: 20, interrupts: AsyncStream { _ in }) { report, _ in
            reports.append(report)
        }
        // Ticks every 10 s for 200 s: asked at 0, 60 and 180 s.
        #expect(harness.requests("exchangerate") == 3)
        let failedTicks = reports.list.filter { report in report.failures.contains { $0.venue == "exchangerate" } }
        #expect(failedTicks.map(\.number) == [1, 7, 19])
    }

    @Test("premium --watch: a table past its next update is asked once, not on every refresh")
    func premiumWatch() async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        let run = await runCLI(
            ["premium", "BTC", "--watch", "-c", "3", "-i", "1", "-e", "bithumb,binance", "-f", "json"],
            environment: fixtures.environment, http: CurlHTTPClient(),
            registry: fixedRegistry(["bithumb", "binance", "exchangerate"]), now: Self.start)
        #expect(run.output.split(separator: "\n").count == 3)
        #expect(fixtures.requests.filter { $0.path.hasPrefix("/exchangerate/") }.count == 1)
        #expect(fixtures.requests.filter { $0.path.hasPrefix("/binance/") }.count == 3)
    }
}
