import AggCore
import AggOptions
import AggServices

/// How `agg watch` shows its refreshes on the terminal: the screen (`WatchScreen`), the cursor
/// hidden while the table is redrawn in place, the alerts' lines, and the exit code.
struct WatchOutput: Sendable {
    var screen: WatchScreen
    var alerts: AlertSetup?
    var console: Console
    var now: @Sendable () -> Timestamp

    init(_ request: WatchRequest, context: CLIContext) {
        screen = WatchScreen(
            console: context.console, options: request.options, interval: request.interval,
            redraws: context.console.outputIsTerminal && context.environment["TERM"] != "dumb", now: context.now,
            staleAfter: request.staleAfter)
        screen.streaming = request.stream
        alerts = request.alerts?.setup(console: context.console)
        console = context.console
        now = context.now
    }

    /// Hides the cursor when the table is redrawn in place; the state before the first refresh.
    func begin() -> WatchScreen.State {
        if screen.redraws { console.standardOutput.write(WatchCommand.hideCursor) }
        var initial = WatchScreen.State()
        initial.loop.alerts = alerts?.monitor()
        return initial
    }

    /// Draws refresh number `number`, then evaluates and delivers the alerts; whether to go on
    /// (not when `--alert-log` or standard output cannot be written).
    func show(_ refresh: WatchService.Refresh, number: Int, state: inout WatchScreen.State) async -> Bool {
        await show(drawing: refresh.outcomes, observing: refresh, number: number, state: &state)
    }

    /// Draws `drawing` as block number `number`, then evaluates and delivers the alerts against
    /// `observing` (with `--stream` off a terminal a block holds only the quotes that changed,
    /// while the alerts see every quote); whether to go on.
    func show(
        drawing: [QuoteService.Outcome], observing refresh: WatchService.Refresh, number: Int,
        state: inout WatchScreen.State
    ) async -> Bool {
        screen.draw(drawing, refresh: number, state: &state)
        if let alerts, var monitor = state.loop.alerts {
            let report = refresh.transfers
            for error in report.errors {
                console.printError("agg: warning: no transfer status: \(error.description)")
            }
            let tick = await alerts.tick(
                AlertObservations(outcomes: refresh.outcomes, transfers: report.rows, symbols: alerts.symbols),
                at: now(), monitor: &monitor)
            state.loop.alerts = monitor
            if screen.redraws, console.errorIsTerminal {
                state.loop.drawnLines += tick.lines + report.errors.count
            }
            if tick.failed {
                state.loop.alertLogFailed = true
                return false
            }
        }
        // Output that cannot be written ends the run (agg then exits 74).
        return console.standardOutput.failure == nil
    }

    /// Leaves the terminal as it was, waits for alert programs, and answers the exit code: 0
    /// (also when stopped by a signal), 1 when a venue failed in the last refresh, 74 when
    /// `--alert-log` could not be written.
    func finish(_ end: RefreshLoop.End<WatchScreen.State>) async throws(AggError) -> ExitCode {
        try await WatchEnding.finish(
            end, redraws: screen.redraws, styled: screen.options.style.enabled, console: console, alerts: alerts)
    }
}

/// What every watch loop carries from one refresh to the next, whatever it draws: `agg watch`'s
/// screen and `agg premium --watch`'s board each add their own part (`WatchScreenState`).
struct WatchLoopState: Sendable {
    /// Lines drawn by the previous refresh, to move back over.
    var drawnLines = 0
    /// Whether a venue failed in the last refresh (exit 1).
    var lastFailed = false
    /// The alert rules' states, with `--alert`.
    var alerts: AlertMonitor?
    /// Whether `--alert-log` could not be written (exit 74).
    var alertLogFailed = false

    /// Writes `text` over the block the previous refresh drew (the cursor moved up over it, the
    /// rest of the screen cleared), and counts its lines for the next one.
    mutating func redraw(_ text: String, on output: any TextSink) {
        let moveUp = drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r\u{1B}[J" : ""
        output.write(moveUp + text)
        drawnLines = text.filter { $0 == "\n" }.count
    }
}

/// A refreshing screen's state (`agg watch`'s and `agg premium --watch`'s): the shared part its
/// ending reads, and its own.
protocol WatchScreenState: Sendable {
    var loop: WatchLoopState { get }
}

/// How `agg watch` and `agg premium --watch` end, whichever way their loop ended.
enum WatchEnding {
    /// Leaves the terminal as it was (attributes reset when `styled`, the cursor shown again when
    /// the screen was redrawn in place), waits for the alert programs, and answers the exit code:
    /// 0 (also when stopped by a signal), 1 when a venue failed in the last refresh, 74 when
    /// `--alert-log` could not be written; a refresh that threw is thrown.
    static func finish<State: WatchScreenState>(
        _ end: RefreshLoop.End<State>, redraws: Bool, styled: Bool, console: Console, alerts: AlertSetup?
    ) async throws(AggError) -> ExitCode {
        if redraws {
            console.standardOutput.write((styled ? WatchCommand.resetAttributes : "") + WatchCommand.showCursor)
        }
        await alerts?.delivery.finish()
        switch end {
        case .finished(let state):
            if state.loop.alertLogFailed { return .outputFailure }
            return state.loop.lastFailed ? .sourceFailed : .success
        case .stopped: return .success
        case .failed(let error): throw error
        }
    }
}

extension WatchCommand {
    /// Hides the cursor while the table is redrawn in place (also `agg premium --watch`'s).
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again: written on every way out after `hideCursor`.
    static let showCursor = "\u{1B}[?25h"
    /// Resets colours and attributes, written on the way out when colour is on.
    static let resetAttributes = "\u{1B}[0m"

    /// Seconds as the watch header writes them (`WatchScreen`'s).
    static func formatSeconds(_ value: Double) -> String {
        RateText.format(value)
    }
}
