import AggCore

/// Where alerts go: one line each on standard error (and the terminal bell when standard error
/// is a terminal), `--alert-log`, and `--on-alert`.
package struct AlertDelivery: Sendable {
    /// The bell, rung once a tick that fired, after its lines.
    static let bell = "\u{07}"

    var console: Console
    var log: AlertLogFile?
    var program: AlertProgram?

    /// Delivers `alerts`: the stderr lines first, then the log (awaited, synced), then the
    /// programs (started, not awaited). Answers the log's failure, after which the caller stops.
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
        return nil
    }

    /// Waits for the programs still running (each ends within its time limit).
    package func finish() async {
        await program?.finish()
    }
}
