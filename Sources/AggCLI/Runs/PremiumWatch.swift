import AggCore
import AggJSON
import AggOptions
import AggServices

/// `agg premium --watch`: the board refreshed on `RefreshLoop`, redrawn in place on a terminal,
/// one block a refresh in a pipe (a JSON line, a table and a blank line, or CSV rows under one
/// header). FX sources are asked only when `FXSchedule` says they are due (their tables are kept
/// between refreshes), since FX sources update at most a few times a day and some block callers
/// who ask often.
struct PremiumWatch: Sendable {
    /// What carries from one refresh to the next.
    struct State: WatchScreenState {
        /// When each FX source is due, and the tables of earlier refreshes.
        var fx = FXSchedule()
        /// What every watch loop carries (lines drawn, failures, alerts).
        var loop = WatchLoopState()
    }

    var request: PremiumRequest
    var service: PremiumService
    var context: CLIContext
    var options: NetworkOptions
    /// `--alert` and its delivery, if given.
    var alerts: AlertSetup?

    var redraws: Bool { context.console.outputIsTerminal && context.environment["TERM"] != "dumb" }

    func run(interval: Double, count: Int?) async throws(AggError) -> ExitCode {
        let console = context.console
        if redraws { console.standardOutput.write(WatchCommand.hideCursor) }
        let loop = RefreshLoop(interval: interval, count: count)
        var initial = State()
        initial.loop.alerts = alerts?.monitor()
        let alerts = self.alerts
        let end = await loop.run(initial, interrupts: context.interrupts()) { state, refresh throws(AggError) in
            let now = context.now()
            var request = self.request.service
            let due = state.fx.due(request.fxSources, at: now)
            let dueIDs = Set(due.map(\.id))
            // The sources not due answer from their last table (kept through failures).
            request.knownTables = state.fx.tables.filter { table in
                request.fxSources.contains { $0.id == table.source } && !dueIDs.contains(table.source)
            }
            request.fxSources = due
            let result = await service.run(request)
            if Task.isCancelled { return false }
            for source in due {
                if let table = result.tables.first(where: { $0.source == source.id }) {
                    state.fx.record(source.id, .success(table), at: now)
                } else {
                    let error =
                        result.errors.first { $0.venue == source.id }
                        ?? .fxUnavailable("\(source.id) sent no rates")
                    state.fx.record(source.id, .failure(error), at: now)
                }
            }
            draw(result, refresh: refresh, interval: interval, state: &state)
            if let alerts, var monitor = state.loop.alerts {
                let tick = await alerts.tick(
                    AlertObservations(premium: result, symbols: alerts.symbols), at: result.asOf, monitor: &monitor)
                state.loop.alerts = monitor
                if redraws, console.errorIsTerminal { state.loop.drawnLines += tick.lines }
                if tick.failed {
                    state.loop.alertLogFailed = true
                    return false
                }
            }
            return console.standardOutput.failure == nil
        }
        return try await WatchEnding.finish(
            end, redraws: redraws, styled: options.style.enabled, console: console, alerts: alerts)
    }

    /// Draws `result` as refresh number `refresh`: in place on a terminal (headed by how often it
    /// refreshes, or `live` for `--stream` when `interval` is `nil`), one block otherwise.
    func draw(_ result: PremiumService.Result, refresh: Int, interval: Double?, state: inout State) {
        let console = context.console
        let failures = result.errors.map { "agg: \($0.description)" }
        state.loop.lastFailed = !failures.isEmpty || result.board == nil
        let rendering = request.rendering(result)
        if redraws {
            var block = [
                options.style.dim(
                    (interval.map { "every \(RateText.format($0)) s" } ?? "live")
                        + " · \(TableTime.text(result.asOf)) UTC · Ctrl-C to stop")
            ]
            block.append(rendering.table(width: console.width, style: options.style))
            block += failures.map { options.style.warning(TerminalText.escape($0)) }
            state.loop.redraw(block.joined(separator: "\n") + "\n", on: console.standardOutput)
            return
        }
        let text = Output.text(rendering, format: options.format, style: options.style, console: console)
        switch options.format {
        case .json, .csv:
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let rows = options.format == .csv && refresh > 1 ? lines.dropFirst() : lines[...]
            console.standardOutput.write(rows.isEmpty ? "" : rows.joined(separator: "\n") + "\n")
        case .table:
            console.standardOutput.write("\(TableTime.text(result.asOf)) UTC\n" + text + "\n")
        }
        for failure in failures { console.printError(failure) }
        for entry in request.skipped(result) { context.debug(entry.description) }
    }
}
