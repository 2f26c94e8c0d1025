import AggCore
import AggJSON
import FoundationEssentials

/// `agg watch`: the quote table, refreshed until Ctrl-C (or `--count` refreshes).
///
/// On a terminal the table is redrawn in place, with changed cells highlighted and ▲▼ for the
/// move since the previous refresh; elsewhere each refresh is printed as one block (one JSON
/// line, one table, or CSV rows), so the output can be piped and logged. Fetching and rendering
/// are `agg quote`'s own.
public enum WatchCommand: Command {
    public static let spec = CommandSpec(
        name: "watch",
        summary: "Refresh the quotes of coins until Ctrl-C, highlighting what changed.",
        usage: "watch SYMBOL... [--exchange ID[,ID...]] [--quote CUR] [--interval SECONDS] [--count N]",
        options: [
            CommonOptions.exchange,
            CommonOptions.quote,
            OptionSpec(
                "interval", short: "i", value: "SECONDS",
                help:
                    "Seconds between refreshes (default \(Int(defaultInterval)); at least \(Int(minimumInterval)) and within each venue's rate limit)."
            ),
            OptionSpec("count", short: "c", value: "N", help: "Stop after N refreshes."),
        ] + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg watch BTC ETH --exchange bithumb",
            "agg watch BTC --interval 5 --count 3 --format json",
        ],
        discussion: """
            Stop with Ctrl-C (or SIGTERM, or SIGHUP unless it is ignored, as under nohup); the
            terminal is left as it was (cursor shown, colours reset). When the output is not a
            terminal, each refresh prints one block: a JSON line, a table followed by a blank line,
            or CSV rows under a single header. Exit status: 0 (also when stopped by a signal), or
            1 when a venue failed in the last refresh.
            """
    )

    /// The shortest interval accepted, whatever the venues allow.
    static let minimumInterval: Double = 1
    /// The interval when `--interval` is not given (raised to what the rate limits need).
    static let defaultInterval: Double = 2
    /// The longest interval accepted.
    static let maximumInterval: Double = 86_400
    /// Hides the cursor while the table is redrawn in place.
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again: written on every way out after `hideCursor`.
    static let showCursor = "\u{1B}[?25h"
    /// Resets colours and attributes, written on the way out when colour is on.
    static let resetAttributes = "\u{1B}[0m"

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let requests = try QuoteCommand.plan(
            symbols: arguments.positionals, options: options, all: false, registry: context.registry)
        let (floor, reason) = shortestInterval(requests, registry: context.registry)
        var interval = max(defaultInterval, floor)
        if let text = arguments.value("interval") {
            guard let seconds = Double(text), seconds.isFinite, seconds <= maximumInterval else {
                throw .usage("invalid --interval '\(text)': expected seconds, such as 2 or 0.5")
            }
            guard seconds >= floor else {
                throw .usage("--interval \(text) is too short: at least \(formatSeconds(floor)) s (\(reason))")
            }
            interval = seconds
        }
        var count: Int?
        if let text = arguments.value("count") {
            guard let value = Int(text), value >= 1 else {
                throw .usage("invalid --count '\(text)': expected a whole number of refreshes, 1 or more")
            }
            count = value
        }
        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: requests.map(\.venue))
        let session = Session(
            context: context, options: options, requests: requests, factory: factory, interval: interval,
            count: count)

        let terminal = session.redraws
        if terminal { context.console.standardOutput.write(hideCursor) }
        let interrupts = context.interrupts()
        let result = await withTaskGroup(of: Event.self) { group in
            group.addTask {
                let outcome = await session.loop()
                return .finished(outcome)
            }
            group.addTask {
                for await _ in interrupts { return .interrupted }
                return .interruptsEnded
            }
            var result: Result<ExitCode, AggError> = .success(.success)
            while let event = await group.next() {
                switch event {
                case .finished(let outcome): result = outcome
                case .interrupted: result = .success(.success)
                case .interruptsEnded: continue
                }
                group.cancelAll()
                break
            }
            return result
        }
        if terminal {
            context.console.standardOutput.write((options.style.enabled ? resetAttributes : "") + showCursor)
        }
        return try result.get()
    }

    private enum Event: Sendable {
        case finished(Result<ExitCode, AggError>)
        case interrupted
        case interruptsEnded
    }

    /// The shortest interval that keeps every venue within its rate limit, counting one request
    /// per market (the most a refresh can make), rounded up to a tenth of a second and never
    /// below `minimumInterval`; with the reason, naming the venue that sets it.
    static func shortestInterval(_ requests: [QuoteCommand.VenueRequest], registry: AdapterRegistry) -> (
        Double, String
    ) {
        var floor = minimumInterval
        var reason = "the shortest interval agg allows"
        for request in requests {
            guard let descriptor = registry.descriptor(id: request.venue), descriptor.requestsPerSecond > 0 else {
                continue
            }
            let needed = (Double(request.markets.count) / descriptor.requestsPerSecond * 10).rounded(.up) / 10
            if needed > floor {
                floor = needed
                reason =
                    "\(descriptor.id) allows \(formatSeconds(descriptor.requestsPerSecond)) requests/s and a refresh makes up to \(request.markets.count)"
            }
        }
        return (floor, reason)
    }

    static func formatSeconds(_ value: Double) -> String {
        RateText.format(value)
    }

    /// One run of the refresh loop.
    struct Session: Sendable {
        var context: CLIContext
        var options: NetworkOptions
        var requests: [QuoteCommand.VenueRequest]
        var factory: AdapterFactory
        var interval: Double
        var count: Int?

        /// Whether the table is redrawn in place: standard output is a terminal that can move
        /// its cursor (not `TERM=dumb`).
        var redraws: Bool {
            context.console.outputIsTerminal && context.environment["TERM"] != "dumb"
        }

        /// Fetches and draws until `count` refreshes are done or the task is cancelled.
        func loop() async -> Result<ExitCode, AggError> {
            let console = context.console
            var previous: [String: Quote] = [:]
            var drawnLines = 0
            var refresh = 0
            var lastFailed = false
            while !Task.isCancelled {
                let outcomes: [QuoteCommand.Outcome]
                do throws(AggError) {
                    outcomes = try await QuoteCommand.fetch(
                        requests, all: false, quoteCurrency: options.quoteCurrency, factory: factory)
                } catch {
                    return .failure(error)
                }
                if Task.isCancelled { break }
                refresh += 1
                let failures = outcomes.compactMap { outcome -> String? in
                    guard case .failure(let error) = outcome.result else { return nil }
                    return "agg: \(outcome.exchange) \(outcome.market): \(error.summaryNamingNoMarket)"
                }
                lastFailed = !failures.isEmpty
                var rendering = QuoteRendering(outcomes: outcomes, options: options, width: console.width)
                let now = context.now()
                if redraws {
                    rendering.previous = previous
                    var block = [
                        options.style.dim(
                            "every \(formatSeconds(interval)) s · \(TableTime.text(now)) UTC · Ctrl-C to stop")
                    ]
                    block.append(rendering.table())
                    block += failures.map { options.style.warning(TerminalText.escape($0)) }
                    let text = block.joined(separator: "\n") + "\n"
                    let moveUp = drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r\u{1B}[J" : ""
                    console.standardOutput.write(moveUp + text)
                    drawnLines = text.filter { $0 == "\n" }.count
                } else {
                    console.standardOutput.write(block(rendering, refresh: refresh, now: now))
                    for failure in failures { console.printError(failure) }
                }
                // Output that cannot be written ends the run (agg then exits 74).
                if console.standardOutput.failure != nil { break }
                previous = Dictionary(
                    rendering.quotes.map { (QuoteRendering.key($0.exchange, $0.market), $0) }
                ) { first, _ in first }
                if let count, refresh >= count { break }
                do {
                    try await Task.sleep(for: .seconds(interval))
                } catch {
                    break
                }
            }
            return .success(lastFailed ? .sourceFailed : .success)
        }

        /// One refresh for a pipe: a JSON line, a table and a blank line, or CSV rows (the header
        /// only before the first).
        func block(_ rendering: QuoteRendering, refresh: Int, now: Timestamp) -> String {
            switch options.format {
            case .json:
                guard case .object(let object) = rendering.json() else { return "" }
                let members = [JSONObject.Member(key: "time", value: JSONOutput.time(now))] + object.members
                return JSONValue.object(JSONObject(members)).serialized() + "\n"
            case .table:
                return "\(TableTime.text(now)) UTC\n" + rendering.table() + "\n\n"
            case .csv:
                let lines = rendering.csv().split(separator: "\n", omittingEmptySubsequences: false)
                let rows = refresh == 1 ? lines[...] : lines.dropFirst()
                return rows.isEmpty ? "" : rows.joined(separator: "\n") + "\n"
            }
        }
    }
}
