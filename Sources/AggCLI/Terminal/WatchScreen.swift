import AggCore
import AggJSON
import AggServices
import FoundationEssentials

/// How `agg watch` shows each refresh: on a terminal the quote table is redrawn in place, with
/// changed cells highlighted and ▲▼ for the move since the previous refresh; elsewhere each
/// refresh is one block (a JSON line, a table and a blank line, or CSV rows under one header),
/// so the output can be piped and logged.
struct WatchScreen: Sendable {
    /// What carries from one refresh to the next.
    struct State: WatchScreenState {
        /// The quotes of the previous refresh by `QuoteRendering.key`.
        var previous: [String: Quote] = [:]
        /// What every watch loop carries (lines drawn, failures, alerts).
        var loop = WatchLoopState()
    }

    var console: Console
    var options: NetworkOptions
    var interval: Double
    /// Whether the quotes come from streams (`--stream`): the header says so instead of the
    /// interval.
    var streaming = false
    /// Whether a pipe's blocks repeat their failures on stderr. Not with `--stream`: there a
    /// venue's stream says once that it is down (the live service's line), and each block's
    /// failures are in the block itself (the stale quote and its error).
    var failuresOnStandardError: Bool { !streaming }
    /// Whether the table is redrawn in place: standard output is a terminal that can move its
    /// cursor (not `TERM=dumb`).
    var redraws: Bool
    var now: @Sendable () -> Timestamp
    /// How old a quote may be before it is shown stale (`--stale-after`).
    var staleAfter: Duration

    /// Shows refresh number `refresh` (from 1), with its failures.
    func draw(_ outcomes: [QuoteService.Outcome], refresh: Int, state: inout State) {
        let failures = FailureGroup.groups(outcomes).map(\.line)
        state.loop.lastFailed = !failures.isEmpty
        let now = now()
        var rendering = QuoteRendering(outcomes: outcomes, aging: QuoteAging(now: now, staleAfter: staleAfter))
        if redraws {
            rendering.previous = state.previous
            var block = [
                options.style.dim(
                    (streaming ? "streaming" : "every \(WatchCommand.formatSeconds(interval)) s")
                        + " · \(TableTime.text(now)) UTC · Ctrl-C to stop")
            ]
            block.append(rendering.table(width: console.width, style: options.style))
            block += failures.map { options.style.warning(TerminalText.escape($0)) }
            state.loop.redraw(block.joined(separator: "\n") + "\n", on: console.standardOutput)
        } else {
            console.standardOutput.write(block(rendering, refresh: refresh, now: now))
            if failuresOnStandardError {
                for failure in failures { console.printError(failure) }
            }
        }
        state.previous = Dictionary(
            rendering.quotes.map { (QuoteRendering.key($0.exchange, $0.market), $0) }
        ) { first, _ in first }
    }

    /// One refresh for a pipe: the rendering's own output in the chosen format, framed for a
    /// stream (a `time` member first in JSON, a time line before a table, the CSV header only
    /// before the first refresh).
    func block(_ rendering: QuoteRendering, refresh: Int, now: Timestamp) -> String {
        let text = { Output.text(rendering, format: options.format, style: options.style, console: console) }
        switch options.format {
        case .json:
            return rendering.jsonLine(time: now)
        case .table:
            return "\(TableTime.text(now)) UTC\n" + text() + "\n"
        case .csv:
            let lines = text().dropLast().split(separator: "\n", omittingEmptySubsequences: false)
            let rows = refresh == 1 ? lines[...] : lines.dropFirst()
            return rows.isEmpty ? "" : rows.joined(separator: "\n") + "\n"
        }
    }
}
