import AggCore

/// Where alerts go: one line each on standard error (and the terminal bell when standard error
/// is a terminal), `--alert-log`, `--on-alert`, and `--notify` destinations.
package struct AlertDelivery: Sendable {
    /// The bell, rung once a tick that fired, after its lines.
    static let bell = "\u{07}"

    var console: Console
    var log: AlertLogFile?
    var program: AlertProgram?
    var notify: NotifyDispatcher?

    /// Says each crossing the cooldown held back, in one line on stderr: it is counted into the
    /// next alert of its rule and venue (`+N more since ...`), not delivered now.
    func hold(_ alerts: [Alert]) {
        for alert in alerts { console.printError("agg: alert held back by the cooldown: " + alert.summary) }
    }

    /// Delivers `alerts`: the stderr lines first, then the log (awaited, synced), then the
    /// programs (started, not awaited) and the `--notify` queues (handed over, never awaited).
    /// Answers the log's failure, after which the caller stops.
    func deliver(_ alerts: [Alert]) async -> WriteFailure? {
        guard !alerts.isEmpty else { return nil }
        // printError escapes the line: a venue id or symbol cannot drive the terminal.
        for alert in alerts { console.printError("agg: alert: " + alert.summary) }
        if console.errorIsTerminal { console.standardError.write(Self.bell) }
        if let log, let failure = await log.append(alerts.map { $0.json + "\n" }) {
            console.printError("agg: cannot write to --alert-log \(log.path): \(failure)")
            return failure
        }
        if let program { for alert in alerts { program.run(alert) } }
        if let notify { for alert in alerts { notify.send(NotifyMessage(alert: alert)) } }
        return nil
    }

    /// Waits for the programs still running (each ends within its time limit) and for the
    /// `--notify` queues to drain (within their deadline).
    package func finish() async {
        async let programs: Void? = program?.finish()
        _ = await notify?.finish()
        _ = await programs
    }
}
