import AggCore
import AggOptions
import AggServices

/// `agg premium --watch --stream`: one REST snapshot of every ticker (as `agg premium` asks)
/// draws the first board and names the markets to follow; then the live quote service's
/// changes recompute the rows of the coins they touch (`LivePremiumSession`), redrawn at most 4
/// times a second (`RedrawPacer`) in place on a terminal, one block a redraw otherwise. FX
/// sources (when `FXSchedule` says they are due) and transfer status are polled every
/// `interval` beside the streams. `--count N` ends the run after N boards (the first included).
struct PremiumStreamWatch: Sendable {
    var watch: PremiumWatch
    var live: LiveQuoteService
    /// Seconds between polls of the FX sources and transfer status (and of a venue whose stream
    /// is down).
    var interval: Double
    var count: Int?
    var clock: any StreamClock

    /// What the run's loop reacts to, in the order it came.
    private enum Input: Sendable {
        case update(LiveQuoteUpdate)
        /// The FX sources and transfer status answered.
        case inputs(PremiumService.Inputs)
        /// The pending redraw is due.
        case due
        case stop
        /// The service ended (only when the run is being cancelled).
        case end
    }

    func run() async throws(AggError) -> ExitCode {
        let context = watch.context
        if watch.redraws { context.console.standardOutput.write(WatchCommand.hideCursor) }
        let end = await follow(interrupts: context.interrupts())
        return try await WatchEnding.finish(
            end, redraws: watch.redraws, styled: watch.options.style.enabled, console: context.console,
            alerts: watch.alerts)
    }

    private func follow(interrupts: AsyncStream<Void>) async -> RefreshLoop.End<PremiumWatch.State> {
        let context = watch.context
        let request = watch.request.service
        var state = PremiumWatch.State()
        state.loop.alerts = watch.alerts?.monitor()
        let snapshot = await watch.service.run(request)
        if Task.isCancelled { return .stopped }
        var schedule = FXSchedule()
        let started = context.now()
        for source in request.fxSources {
            if let table = snapshot.tables.first(where: { $0.source == source.id }) {
                schedule.record(source.id, .success(table), at: started)
            } else {
                let error =
                    snapshot.errors.first { $0.venue == source.id } ?? .fxUnavailable("\(source.id) sent no rates")
                schedule.record(source.id, .failure(error), at: started)
            }
        }
        var session = LivePremiumSession(request: request, snapshot: snapshot)
        var drawn = 0
        /// Draws one board; whether to go on.
        func show(_ result: PremiumService.Result) async -> Bool {
            drawn += 1
            guard await draw(result, number: drawn, state: &state) else { return false }
            if let count, drawn >= count { return false }
            return true
        }
        guard await show(snapshot) else { return .finished(state) }

        let (inputs, continuation) = AsyncStream<Input>.makeStream()
        let updates = live.updates(
            watch.request.live(after: snapshot, interval: interval, announcesPolling: false))
        let feeder = Task {
            for await update in updates { continuation.yield(.update(update)) }
            continuation.yield(.end)
        }
        let stopper = Task {
            for await _ in interrupts {
                continuation.yield(.stop)
                return
            }
        }
        let poller = Task { [watch, clock, interval, schedule] in
            var schedule = schedule
            let spacing = Duration.milliseconds(Int64((interval * 1000).rounded()))
            var next = clock.now + spacing
            while !Task.isCancelled {
                guard (try? await clock.sleep(until: next)) != nil else { return }
                next = clock.now + spacing
                let now = watch.context.now()
                var asked = request
                let due = schedule.due(request.fxSources, at: now)
                let dueIDs = Set(due.map(\.id))
                asked.knownTables = schedule.tables.filter { table in
                    request.fxSources.contains { $0.id == table.source } && !dueIDs.contains(table.source)
                }
                asked.fxSources = due
                let answered = await watch.service.inputs(asked)
                if Task.isCancelled { return }
                for (source, result) in answered.answered { schedule.record(source, result, at: now) }
                continuation.yield(.inputs(answered))
            }
        }
        var timer: Task<Void, Never>?
        defer {
            feeder.cancel()
            stopper.cancel()
            poller.cancel()
            timer?.cancel()
            continuation.finish()
        }
        var pacer = RedrawPacer()
        pacer.redrew(at: clock.now)
        for await input in inputs {
            switch input {
            case .update(.notice(let line)):
                context.console.printError("agg: " + line)
                if watch.redraws, context.console.errorIsTerminal { state.loop.drawnLines += 1 }
                continue
            case .update(.malformed(let venue, let reason, let total)):
                context.debug("\(venue): skipped a malformed stream message (\(reason)); \(total) so far")
                continue
            case .update(.quotes(let changed, _)):
                session.apply(changed)
                if !session.board.recomputed.isEmpty {
                    context.debug("premium: recomputed \(session.board.recomputed.joined(separator: ", "))")
                }
            case .inputs(let answered):
                session.take(answered)
            case .due:
                pacer.redrew(at: clock.now)
                guard await show(session.result(at: context.now())) else { return .finished(state) }
                continue
            case .stop:
                return .stopped
            case .end:
                return .finished(state)
            }
            if pacer.drawsNow(on: clock, timer: &timer, due: { _ = continuation.yield(.due) }) {
                guard await show(session.result(at: context.now())) else { return .finished(state) }
            }
        }
        return .finished(state)
    }

    /// Draws `result` and runs the alerts on it; whether to go on.
    private func draw(_ result: PremiumService.Result, number: Int, state: inout PremiumWatch.State) async -> Bool {
        let console = watch.context.console
        watch.draw(result, refresh: number, interval: nil, state: &state)
        if let alerts = watch.alerts, var monitor = state.loop.alerts {
            let tick = await alerts.tick(
                AlertObservations(premium: result, symbols: alerts.symbols), at: result.asOf, monitor: &monitor)
            state.loop.alerts = monitor
            if watch.redraws, console.errorIsTerminal { state.loop.drawnLines += tick.lines }
            if tick.failed {
                state.loop.alertLogFailed = true
                return false
            }
        }
        return console.standardOutput.failure == nil
    }
}
