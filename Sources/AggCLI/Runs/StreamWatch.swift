import AggCore
import AggOptions
import AggServices

/// `agg watch --stream`: the live quote service's updates on `WatchOutput`'s screen. Off a
/// terminal each change is one block of the quotes that changed (a JSON line, a table, CSV
/// rows); on a terminal the whole table is redrawn, at most 4 times a second (`RedrawPacer`).
/// `--count N` ends the run after N blocks or redraws; a stop signal ends it too. The venues'
/// lines (stream down, back, polling over REST) go to stderr.
struct StreamWatch: Sendable {
    var output: WatchOutput
    var service: LiveQuoteService
    var request: LiveQuoteRequest
    var count: Int?
    var clock: any StreamClock
    /// Writes an `AGG_DEBUG` note.
    var debug: @Sendable (String) -> Void

    /// What the run's loop reacts to, in the order it came.
    private enum Input: Sendable {
        case update(LiveQuoteUpdate)
        /// The pending redraw is due.
        case due
        case stop
        /// The service ended (it runs until cancelled: only when the run is being cancelled).
        case end
    }

    func run(interrupts: AsyncStream<Void>) async -> RefreshLoop.End<WatchScreen.State> {
        let (inputs, continuation) = AsyncStream<Input>.makeStream()
        let updates = service.updates(request)
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
        var timer: Task<Void, Never>?
        defer {
            feeder.cancel()
            stopper.cancel()
            timer?.cancel()
            continuation.finish()
        }
        let console = output.console
        var state = output.begin()
        var pacer = RedrawPacer()
        var drawn = 0
        var board: [QuoteService.Outcome] = []
        /// Draws one block or redraw; whether to go on.
        func show(_ drawing: [QuoteService.Outcome]) async -> Bool {
            drawn += 1
            let goOn = await output.show(
                drawing: drawing, observing: WatchService.Refresh(outcomes: board), number: drawn, state: &state)
            if let count, drawn >= count { return false }
            return goOn
        }
        for await input in inputs {
            switch input {
            case .update(.notice(let line)):
                console.printError("agg: " + line)
                if output.screen.redraws, console.errorIsTerminal { state.loop.drawnLines += 1 }
            case .update(.malformed(let venue, let reason, let total)):
                debug("\(venue): skipped a malformed stream message (\(reason)); \(total) so far")
            case .update(.quotes(let changed, let latest)):
                board = latest
                if !output.screen.redraws {
                    for outcome in changed {
                        guard await show([outcome]) else { return .finished(state) }
                    }
                    continue
                }
                if pacer.drawsNow(on: clock, timer: &timer, due: { _ = continuation.yield(.due) }) {
                    guard await show(board) else { return .finished(state) }
                }
            case .due:
                pacer.redrew(at: clock.now)
                guard await show(board) else { return .finished(state) }
            case .stop:
                return .stopped
            case .end:
                return .finished(state)
            }
        }
        return .finished(state)
    }
}
