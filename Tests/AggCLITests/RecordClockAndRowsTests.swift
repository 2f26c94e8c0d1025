import AggCore
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggOptions
@testable import AggServices

/// A store that writes nothing of what it is given, as a PostgreSQL store does for the points
/// of venues whose lease another recorder took over.
private struct RefusingStore: HistoryStoreStub {
    var base: Store

    func recordCountingRows(_ tick: RecordedTick) async throws(AggError) -> RecordedRows {
        RecordedRows(prices: 0, rates: 0, premiums: 0)
    }
    func claimVenues(_ venues: [String], holder: String, now: Timestamp, expiry: Timestamp) async throws(AggError)
        -> Set<String>
    { try await base.claimVenues(venues, holder: holder, now: now, expiry: expiry) }
    func releaseVenues(holder: String) async throws(AggError) { try await base.releaseVenues(holder: holder) }
}

/// Issue 20, "agg record and PostgreSQL": the schedule runs on the monotonic clock while ticks
/// are stamped with the wall clock, and tick summaries count the rows the store wrote.
@Suite("agg record: the schedule's clock and the rows counted")
struct RecordClockAndRowsTests {
    @Test("a 20 s backward step of the wall clock neither stalls nor skips a tick; each tick has the wall time")
    func wallClockStepsBack() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"])
        defer { harness.cleanUp() }
        let start = harness.clock.now.millisecondsSince1970
        let reports = RecordServiceTests.Reports()
        let clock = harness.clock
        let service = try harness.service()
        let totals = await service.run(try harness.plan(), count: 3, interrupts: AsyncStream { _ in }) {
            report, _ in
            reports.append(report)
            if report.number == 1 { clock.stepWall(by: -20) }
        }
        #expect(totals.ticks == 3)
        // Before: the schedule on the wall clock waited 30 s for the next slot after the step.
        #expect(harness.clock.sleeps == [10, 10])
        #expect(reports.list.map(\.time.millisecondsSince1970) == [start, start - 10_000, start])
    }

    @Test("a forward step of the wall clock does not skip ticks")
    func wallClockStepsForward() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"])
        defer { harness.cleanUp() }
        let clock = harness.clock
        let service = try harness.service()
        let totals = await service.run(try harness.plan(), count: 3, interrupts: AsyncStream { _ in }) {
            report, _ in
            if report.number == 1 { clock.stepWall(by: 35) }
        }
        #expect(totals.ticks == 3)
        #expect(harness.clock.sleeps == [10, 10])
    }

    @Test("a tick whose points the store refused counts 0 rows, though it fetched them")
    func refusedRowsAreNotCounted() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"])
        defer { harness.cleanUp() }
        let options = try NetworkOptions(
            try ArgumentParser.parse([], spec: RecordCommand.spec), context: harness.context)
        let service = RecordService(
            factory: AdapterFactory(context: harness.context, options: options, clock: harness.clock.recorder.retry),
            store: RefusingStore(base: try harness.store()), clock: harness.clock.recorder, holder: "test:1",
            settings: RecordService.Settings(interval: 10, venueDeadline: 5, retainSeconds: nil))
        let reports = RecordServiceTests.Reports()
        let totals = await service.run(try harness.plan(), count: 2, interrupts: AsyncStream { _ in }) { report, _ in
            reports.append(report)
        }
        #expect(
            reports.list.map(\.recorded.prices.count) == [RecordServiceTests.upbitCoins, RecordServiceTests.upbitCoins])
        #expect(reports.list.map(\.rows) == [0, 0])
        #expect(reports.list.map(\.prices) == [0, 0])
        #expect(totals.rows == 0)
    }
}
