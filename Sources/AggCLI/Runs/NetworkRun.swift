import AggCore
import AggOptions
import AggServices

/// The steps every command that reaches venues shares, done once here: the network options and
/// the adapters' session, the `--offline` notice, the spinner while the requests are out, the
/// answer on standard output, one line a failure on standard error, and the exit code.
///
/// A command builds its typed request, then asks its service through this runner; the service
/// itself knows nothing of the terminal.
struct NetworkRun: Sendable {
    let context: CLIContext
    /// The options as resolved for this run (format, colour, timeouts, venues, offline). A
    /// command may set the format before writing (`agg candles --chart` draws a table); the
    /// adapters' session does not depend on it.
    var options: NetworkOptions
    /// The adapters of this run, sharing one HTTP client and one token bucket a venue.
    let factory: AdapterFactory

    /// The run `arguments` ask for: its options resolved, its session made. Asks nothing yet.
    init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        self.init(options: try NetworkOptions(arguments, context: context), context: context)
    }

    private init(options: NetworkOptions, context: CLIContext) {
        self.context = context
        self.options = options
        self.factory = AdapterFactory(context: context, options: options)
    }

    /// Says on stderr what `venues` answer from offline, each once, in order (nothing online).
    func announce(_ venues: [String]) throws(AggError) {
        var unique: [String] = []
        for venue in venues where !unique.contains(venue) { unique.append(venue) }
        try factory.announceOffline(venues: unique)
    }

    /// Runs `work` with a spinner on a terminal's stderr, saying "`message`"; a stop signal while
    /// it spins ends the process with 128 + its number.
    func during<T>(_ message: String, _ work: () async throws(AggError) -> T) async throws(AggError) -> T {
        try await ProgressLine.during(message, console: context.console, signals: context.stopSignals, work)
    }

    /// Writes `rendering` in the run's format, then each of `problems` on stderr (already prefixed
    /// with `agg: `), and answers the exit code: 1 when `failed`, else 0.
    func finish(_ rendering: some Rendering, problems: [String] = [], failed: Bool) -> ExitCode {
        write(rendering)
        return report(problems, failed: failed)
    }

    /// Writes `rendering` in the run's format and colour to standard output.
    func write(_ rendering: some Rendering) {
        Output.write(rendering, options: options, console: context.console)
    }

    /// Each of `problems` on stderr, and the exit code: 1 when `failed`, else 0.
    func report(_ problems: [String], failed: Bool) -> ExitCode {
        for line in problems { context.console.printError(line) }
        return failed ? .sourceFailed : .success
    }
}

extension NetworkRun {
    /// Asks `target`'s venue once through `MarketDataService`: the offline notice, and the
    /// spinner while `request` runs. `what` completes "asking <venue> for ...".
    func fetch<Value: Sendable>(
        _ what: String, from target: MarketTarget,
        _ request: @Sendable (MarketDataService) async throws(AggError) -> Value
    ) async throws(AggError) -> Value {
        try announce([target.descriptor.id])
        let service = MarketDataService(factory: factory, target: target)
        return try await during("asking \(target.descriptor.id) for \(what)") { () async throws(AggError) in
            try await request(service)
        }
    }
}
