import AggCore
import AggServices

/// How `agg record` runs on the terminal: its progress (`RecordProgress`), its alerts evaluated
/// on the ticks in order and delivered, and the exit code.
struct RecordOutput: Sendable {
    var progress: RecordProgress
    var alerts: AlertSetup?

    init(_ request: RecordRequest, context: CLIContext) {
        let mode: RecordProgress.Mode =
            request.quiet
            ? .quiet
            : context.console.outputIsTerminal && context.environment["TERM"] != "dumb" ? .statusLine : .lines
        progress = RecordProgress(
            console: context.console, mode: mode, debugNotes: context.debugNotes, recordsEvents: request.events)
        alerts = request.alerts?.setup(console: context.console)
    }

    /// Records `request` with `service` until its count is done or a stop signal comes (from
    /// `interrupts`, asked for once the plan is announced); exit 0, 1 when the last tick failed
    /// (not when stopped), or 74 when `--alert-log` could not be written.
    func run(_ service: RecordService, _ request: RecordRequest, interrupts: () -> AsyncStream<Void>) async
        -> ExitCode
    {
        let progress = self.progress
        let alerts = self.alerts
        progress.announce(request.plan, interval: request.interval)
        // Stop signals, and a failed write of --alert-log, both end the loop after its tick.
        let (stops, stop) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let signals = interrupts()
        let forwarding = Task {
            for await _ in signals {
                stop.yield()
                break
            }
        }
        // Alerts run on the ticks in order, one at a time, off the recording loop: their state is
        // kept in the same store (a restart does not fire again what already fired).
        let (reports, report) = AsyncStream.makeStream(of: RecordService.TickReport.self)
        let store = service.store
        let alerting = Task { () -> Bool in
            guard let alerts else { return false }
            var monitor = AlertMonitor(rules: alerts.rules, settings: alerts.settings, store: store)
            for await tick in reports {
                if tick.storeError == nil {
                    let outcome = await alerts.tick(
                        AlertObservations(recorded: tick.recorded, symbols: alerts.symbols), at: tick.time,
                        monitor: &monitor)
                    if outcome.failed {
                        stop.yield()
                        return true
                    }
                }
                // Events were stored each in its own transaction, whatever became of the prices.
                if let events = tick.events?.events, !events.isEmpty,
                    await alerts.deliver(events: events).failed
                {
                    stop.yield()
                    return true
                }
            }
            return false
        }
        let totals = await service.run(request.plan, count: request.count, interrupts: stops) { tick, totals in
            progress.tick(tick, totals: totals)
            if alerts != nil { report.yield(tick) }
        }
        report.finish()
        let alertLogFailed = await alerting.value
        forwarding.cancel()
        await alerts?.delivery.finish()
        let stopped = request.count.map { totals.ticks < $0 } ?? true
        progress.finish(totals, stopped: stopped)
        if alertLogFailed { return .outputFailure }
        return !stopped && totals.lastFailed ? .sourceFailed : .success
    }
}
