import AggCore
import AggDataVenues
import AggJSON
import AggOptions
import AggServices
import AggStore
import AggTestKit
import AggTransport
import AggVenues
import Bithumb
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Section 7: record. `agg record --premium`'s loop (`RecordService`) in process over 8 venues and 3
/// FX sources against the loopback server, ticks back to back on a clock that only moves when
/// it sleeps: CPU a tick, RSS growth over `--record-ticks` ticks, and the rows a second the
/// store takes.
enum RecordSection {
    static func run(_ bench: Bench) async throws {
        let runs = bench.runs
        let body = bench.body
        let venues = ["bithumb", "upbit", "binance", "okx", "kraken", "coinone", "korbit", "gopax"]
        let fx = ["exchangerate", "frankfurter", "dunamu"]
        let server = try FixtureServer(venues: venues + fx)
        defer { server.stop() }
        let home = NSTemporaryDirectory() + "agg-bench-record-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = server.environment
        environment["AGG_HOME"] = home
        let registry = DataVenueLoader.load(
            into: .standard, shipped: [DataVenueDirectory.checkout], user: nil
        ).registry
        let context = CLIContext(
            registry: registry, environment: environment,
            console: Console(
                standardOutput: BufferSink(), standardError: BufferSink(), outputIsTerminal: false,
                errorIsTerminal: false, width: 80),
            makeHTTPClient: { timeouts in CurlHTTPClient(timeouts: timeouts) })
        let ticks =
            bench.recordTicks
        let clock = BenchClock()
        let options = try NetworkOptions(try ArgumentParser.parse([], spec: RecordCommand.spec), context: context)
        let plan = try RecordService.plan(
            symbols: [], exchanges: ExchangeSelection(ids: venues, explicit: true), premium: true, interval: 10,
            registry: registry)
        // A minute of retention at 10 s a tick: pruning runs as it does in a long run.
        var settings = RecordService.Settings(interval: 10, venueDeadline: 8, retainSeconds: 60)
        settings.pruneEveryTicks = 6
        let service = RecordService(
            factory: AdapterFactory(context: context, options: options, clock: clock.recorder.retry),
            store: try Store.open(environment: environment), clock: clock.recorder, holder: "bench:\(getpid())",
            settings: settings)

        /// What `count` ticks took: CPU seconds of each tick, rows stored, failures. A struct, not a
        /// tuple, as the result of an async function (the release-miscompile rule).
        struct Ticks {
            var cpu: [Double]
            var rows: Int
            var failures: Int
        }

        /// Runs `count` ticks.
        func record(_ count: Int) async -> Ticks {
            let samples = Mutex<(cpu: [Double], last: Double)>(([], processCPU()))
            let totals = await service.run(plan, count: count, interrupts: AsyncStream { _ in }) { report, _ in
                let now = processCPU()
                // The loopback server runs in this process: its log of requests must not count as
                // the recorder's memory.
                server.forgetRequests()
                if report.number % 1000 == 0 {
                    print(String(format: "   (RSS at tick %d: %.1f MB)", report.number, Double(residentKiB()) / 1024))
                }
                samples.withLock { state in
                    state.cpu.append(now - state.last)
                    state.last = now
                }
            }
            return Ticks(cpu: samples.withLock { $0.cpu }, rows: totals.rows, failures: totals.failures)
        }

        let warmUp = await record(50)
        let rssBefore = residentKiB()
        let started = DispatchTime.now().uptimeNanoseconds
        let steady = await record(ticks)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let rssAfter = residentKiB()
        let cpuPerTick = median(steady.cpu)
        print(
            "\(BenchSection.record.rawValue). Record: \(venues.count) venues + \(fx.count) FX sources with --premium, loopback server, ticks back to back"
        )
        line(
            "   rows a tick",
            "\(steady.rows / max(1, ticks)) (\(steady.failures + warmUp.failures) failures in \(ticks + 50) ticks)")
        line(
            "   CPU a tick, median of \(ticks)",
            String(
                format: "%6.2f ms  = %.2f%% of a core at a 10 s interval", cpuPerTick * 1000,
                cpuPerTick * 1000 / 10_000 * 100))
        line(
            "   RSS after 50 ticks → after \(ticks) more",
            String(
                format: "%6.1f MB → %.1f MB (growth %.1f MB)", Double(rssBefore) / 1024, Double(rssAfter) / 1024,
                Double(rssAfter - rssBefore) / 1024))
        line("   wall for \(ticks) ticks", String(format: "%6.1f s", wall))

        // The store alone: ticks of 2,000 prices and 60 premiums written one transaction each.
        let storeFolder = NSTemporaryDirectory() + "agg-bench-history-\(getpid())"
        try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: storeFolder) }
        let historyStore = try Store.open(path: storeFolder + "/agg.sqlite")
        let json = JSONCursor(try JSONParser.parse(body))
        let recorded = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).values
        var rowsPerSecond: [Double] = []
        for index in 0..<max(runs, 5) {
            let time = Timestamp(millisecondsSince1970: 1_800_000_000_000 + Int64(index) * 10_000)
            let prices = (0..<2000).map { index in
                let quote = recorded[index % recorded.count]
                return PricePoint(
                    time: time, exchange: "venue\(index / recorded.count)", market: quote.market, last: quote.last,
                    baseVolume: quote.baseVolume)
            }
            let premiums = (0..<60).map { index in
                PremiumPoint(
                    time: time, exchange: "venue\(index % 3)", symbol: recorded[index].market.base, basis: "usd",
                    fxSource: "exchangerate", percent: Decimal(index) / 100)
            }
            let tick = RecordedTick(time: time, prices: prices, premiums: premiums)
            let start = DispatchTime.now().uptimeNanoseconds
            try await historyStore.record(tick)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rowsPerSecond.append(Double(prices.count + premiums.count) / seconds)
        }
        line("   store: rows/s, ticks of 2,060 rows", String(format: "%8.0f rows/s", median(rowsPerSecond)))
    }
}

/// Seconds of time that only moves when the recorder sleeps: ticks run back to back.
final class BenchClock: Sendable {
    private let milliseconds = Mutex(Int64(1_800_000_000_000))

    var recorder: RecorderClock {
        RecorderClock(
            now: { Timestamp(millisecondsSince1970: self.milliseconds.withLock { $0 }) },
            sleep: { seconds in self.milliseconds.withLock { $0 += Int64((seconds * 1000).rounded()) } },
            retry: RetryClock(
                now: { Double(self.milliseconds.withLock { $0 }) / 1000 }, sleep: { _ in }, random: { 0.5 }))
    }
}
