import AggCore
import AggOptions
import AggServices
import FoundationEssentials
import Synchronization

/// What `agg record` shows while it runs: on a terminal one status line redrawn in place
/// (ticks, rows, failures, the last error); otherwise one line a tick on standard output;
/// nothing with `--quiet`. Failures are one line each on standard error in every mode, the
/// venue's text escaped.
final class RecordProgress: Sendable {
    /// How progress is shown.
    enum Mode: Sendable, Equatable {
        case statusLine, lines, quiet
    }

    private struct State {
        var lastError: String?
        var heldElsewhere: [String] = []
        var statusShown = false
    }

    private let console: Console
    private let mode: Mode
    /// Whether `AGG_DEBUG` asks for the entries skipped in each tick.
    private let debugNotes: Bool
    /// Whether the run records market events (`--events`): the summary counts them.
    private let recordsEvents: Bool
    private let state = Mutex(State())

    init(console: Console, mode: Mode, debugNotes: Bool = false, recordsEvents: Bool = false) {
        self.recordsEvents = recordsEvents
        self.console = console
        self.mode = mode
        self.debugNotes = debugNotes
    }

    /// Says, once at the start, which venues are fetched less often than every tick and why.
    func announce(_ plan: RecordService.Plan, interval: Double) {
        for venue in plan.venues where venue.everyTicks > 1 {
            console.printError(
                "agg: record: \(venue.id) is fetched every \(venue.everyTicks) ticks, skipped in between: its rate "
                    + "limit (\(RateText.format(venue.descriptor.requestsPerSecond)) requests/s) allows "
                    + "\(venue.requestsPerFetch) request\(venue.requestsPerFetch == 1 ? "" : "s") only every "
                    + "\(RateText.format(Double(venue.requestsPerFetch) / venue.descriptor.requestsPerSecond)) s "
                    + "and a tick comes every \(RateText.format(interval)) s")
        }
    }

    /// Reports one tick.
    func tick(_ report: RecordService.TickReport, totals: RecordService.Totals) {
        var problems = report.failures.map { "agg: record: \($0.error.description)" }
        if let error = report.storeError { problems.append("agg: record: \(error.description)") }
        if let events = report.events {
            // Once an outage: the source's first failure, then a line when it answers again.
            problems += events.outages.map { "agg: record: events: \($0.source): \($0.error.description)" }
        }
        let recoveries = report.events?.recovered.map { "agg: record: events: \($0) answers again" } ?? []
        let skipped = debugNotes ? report.skippedEntries.map { CLIContext.debugLine($0.description) } : []
        let (status, notes) = state.withLock { state -> (String, [String]) in
            var notes: [String] = skipped + recoveries
            if report.heldElsewhere != state.heldElsewhere {
                if !report.heldElsewhere.isEmpty {
                    notes.append(
                        "agg: record: another recorder holds "
                            + report.heldElsewhere.joined(separator: ", ") + "; this one leaves them to it")
                }
                state.heldElsewhere = report.heldElsewhere
            }
            if let last = problems.last { state.lastError = last }
            return (Self.status(totals, lastError: state.lastError), notes)
        }
        switch mode {
        case .statusLine:
            if !(problems + notes).isEmpty { console.standardOutput.write(ProgressLine.erase) }
            for line in notes + problems { console.printError(line) }
            console.standardOutput.write(ProgressLine.erase + TerminalText.escape(status))
            state.withLock { $0.statusShown = true }
        case .lines:
            for line in notes + problems { console.printError(line) }
            console.standardOutput.write(Self.line(report) + "\n")
        case .quiet:
            for line in notes + problems { console.printError(line) }
        }
    }

    /// Ends the status line, and says how the run ended.
    func finish(_ totals: RecordService.Totals, stopped: Bool) {
        let shown = state.withLock { $0.statusShown }
        if mode == .statusLine && shown { console.standardOutput.write("\n") }
        guard mode != .quiet else { return }
        console.printError(
            "agg: record: \(stopped ? "stopped" : "done") after \(totals.ticks) tick\(totals.ticks == 1 ? "" : "s"): "
                + "\(totals.rows) rows, \(totals.failures) failure\(totals.failures == 1 ? "" : "s"), "
                + "\(totals.skips) skip\(totals.skips == 1 ? "" : "s"), \(totals.pruned) pruned"
                + Self.badEntries(totals.badEntries) + (recordsEvents ? ", \(totals.events) events" : ""))
    }

    /// `, 1 bad entry` or `, 3 bad entries` (entries of venue answers skipped because they did
    /// not decode); nothing when there were none.
    static func badEntries(_ count: Int) -> String {
        count == 0 ? "" : ", \(count) bad entr\(count == 1 ? "y" : "ies")"
    }

    /// `recording · tick 12 · 5,432 rows · 1 failure · last: agg: record: kraken: ...`
    static func status(_ totals: RecordService.Totals, lastError: String?) -> String {
        "recording · tick \(totals.ticks) · \(DecimalFormatting.grouped(Decimal(totals.rows))) rows · "
            + "\(totals.failures) failure\(totals.failures == 1 ? "" : "s")"
            + (lastError.map { " · last: " + $0 } ?? "")
    }

    /// `2026-12-01T20:50:00.000Z tick 3: 1234 rows (1200 prices, 4 rates, 30 premiums), 7 answered, 1 failed, 1 skipped`
    /// (then `, 1 bad entry` when an entry of an answer was skipped; with `--stream`,
    /// `, 2 streamed (binance, upbit)`: the venues sampled from their live stream, not asked)
    static func line(_ report: RecordService.TickReport) -> String {
        var text =
            "\(report.time) tick \(report.number): \(report.rows) rows (\(report.prices) prices, "
            + "\(report.rates) rates, \(report.premiums) premiums), \(report.answered.count) answered, "
            + "\(report.failures.count) failed, \(report.skipped.count) skipped"
            + badEntries(report.skippedEntries.count)
        if !report.streamed.isEmpty {
            text += ", \(report.streamed.count) streamed (\(report.streamed.sorted().joined(separator: ", ")))"
        }
        if !report.heldElsewhere.isEmpty { text += ", \(report.heldElsewhere.count) held elsewhere" }
        if let events = report.events { text += ", \(events.events.count) event\(events.events.count == 1 ? "" : "s")" }
        if report.storeError != nil { text += ", not stored" }
        return text
    }
}
