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
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "SECONDS", help: "",
            parser: .seconds(in: 0...maximumInterval, positive: false, expected: "seconds, such as 2 or 0.5")),
        help:
            "Seconds between refreshes, at least \(Int(minimumInterval)) and within each venue's rate limit (0.5, 5s, 1m)",
        builtIn: DecidedPerRun("\(Int(defaultInterval))s, or longer when a venue's rate limit needs it"))
    static let count = Option<Int>(
        "count", short: "c", value: "N", help: "Stop after N refreshes.",
        parser: .wholeNumber(in: 1...Int.max, expected: "a whole number of refreshes, 1 or more"))

    public static let spec = CommandSpec(
        name: "watch",
        summary: "Refresh the quotes of coins until Ctrl-C, highlighting what changed.",
        arguments: "SYMBOL...",
        options: [CommonOptions.exchange, CommonOptions.quote, interval, count] + AlertOptions.all
            + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg watch BTC ETH --exchange bithumb",
            "agg watch BTC --interval 5 --count 3 --format json",
            "agg watch BTC ETH -e upbit --alert 'BTC last < 80000000' --alert-log alerts.jsonl",
        ],
        discussion: """
            Stop with Ctrl-C (or SIGTERM, or SIGHUP unless it is ignored, as under nohup); the
            terminal is left as it was (cursor shown, colours reset). When the output is not a
            terminal, each refresh prints one block: a JSON line, a table followed by a blank line,
            or CSV rows under a single header. Exit status: 0 (also when stopped by a signal), or
            1 when a venue failed in the last refresh, or 74 when --alert-log could not be
            written. --alert rules on watch use last and change (premiums are on agg premium
            --watch) and withdraw/deposit closed, for which the venues' transfer status is asked
            each refresh; see docs/alerts.md.
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
        let plan = try QuoteService.plan(
            symbols: arguments.positionals, exchanges: options.exchanges, quoteCurrency: options.quoteCurrency,
            all: false, registry: context.registry)
        let alerts = try AlertSetup.make(
            arguments,
            scope: AlertSetup.Scope(
                command: "agg watch", fields: [.last, .change], elsewhere: "premiums are on agg premium --watch",
                venues: plan.venues.compactMap { context.registry.descriptor(id: $0) },
                symbols: plan.requests.flatMap(\.markets).map(\.base).reduce(into: []) {
                    if !$0.contains($1) { $0.append($1) }
                }),
            registry: context.registry, console: context.console)
        let transfers = alerts.flatMap { TransferWatch($0, plan: plan, registry: context.registry) }
        let (floor, reason) = shortestInterval(
            plan.requests, registry: context.registry, extraRequests: transfers?.venues.map(\.id) ?? [])
        var interval = max(defaultInterval, floor)
        if let seconds = arguments.flag(Self.interval) {
            guard seconds >= floor else {
                throw .usage(
                    "--interval \(formatSeconds(seconds)) is too short: at least \(formatSeconds(floor)) s (\(reason))")
            }
            interval = seconds
        }
        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: plan.venues)
        let service = QuoteService(
            factory: factory, registry: context.registry, caches: false, now: context.now)
        let screen = WatchScreen(
            console: context.console, options: options, interval: interval,
            redraws: context.console.outputIsTerminal && context.environment["TERM"] != "dumb", now: context.now)

        if screen.redraws { context.console.standardOutput.write(hideCursor) }
        let loop = RefreshLoop(interval: interval, count: arguments[Self.count])
        let transferService = TransferStatusService(factory: factory, now: context.now)
        var initial = WatchScreen.State()
        initial.alerts = alerts?.monitor()
        let end = await loop.run(initial, interrupts: context.interrupts()) {
            state, refresh throws(AggError) in
            let outcomes: [QuoteService.Outcome]
            var report = TransferStatusService.Report(rows: [], errors: [])
            if let transfers {
                async let asked = transferService.run(coins: transfers.coins, venues: transfers.venues)
                outcomes = try await service.fetch(plan)
                report = await asked
            } else {
                outcomes = try await service.fetch(plan)
            }
            if Task.isCancelled { return false }
            screen.draw(outcomes, refresh: refresh, state: &state)
            if let alerts, var monitor = state.alerts {
                for error in report.errors {
                    context.console.printError("agg: warning: no transfer status: \(error.description)")
                }
                let tick = await alerts.tick(
                    AlertObservations(outcomes: outcomes, transfers: report.rows, symbols: alerts.symbols),
                    at: context.now(), monitor: &monitor)
                state.alerts = monitor
                if screen.redraws, context.console.errorIsTerminal {
                    state.drawnLines += tick.lines + report.errors.count
                }
                if tick.failed {
                    state.alertLogFailed = true
                    return false
                }
            }
            // Output that cannot be written ends the run (agg then exits 74).
            return context.console.standardOutput.failure == nil
        }
        if screen.redraws {
            context.console.standardOutput.write((options.style.enabled ? resetAttributes : "") + showCursor)
        }
        await alerts?.delivery.finish()
        switch end {
        case .finished(let state):
            if state.alertLogFailed { return .outputFailure }
            return state.lastFailed ? .sourceFailed : .success
        case .stopped: return .success
        case .failed(let error): throw error
        }
    }

    /// The shortest interval that keeps every venue within its rate limit, counting one request
    /// per market (the most a refresh can make), rounded up to a tenth of a second and never
    /// below `minimumInterval`; with the reason, naming the venue that sets it.
    /// `extraRequests` are venues asked once more a refresh (transfer status for the alerts).
    static func shortestInterval(
        _ requests: [QuoteService.VenueRequest], registry: AdapterRegistry, extraRequests: [String] = []
    ) -> (Double, String) {
        var floor = minimumInterval
        var reason = "the shortest interval agg allows"
        var counts = requests.map { ($0.venue, $0.markets.count) }
        for venue in extraRequests {
            if let index = counts.firstIndex(where: { $0.0 == venue }) {
                counts[index].1 += 1
            } else {
                counts.append((venue, 1))
            }
        }
        for (venue, count) in counts {
            guard let descriptor = registry.descriptor(id: venue), descriptor.requestsPerSecond > 0 else {
                continue
            }
            let needed = (Double(count) / descriptor.requestsPerSecond * 10).rounded(.up) / 10
            if needed > floor {
                floor = needed
                reason =
                    "\(descriptor.id) allows \(formatSeconds(descriptor.requestsPerSecond)) requests/s and a refresh makes up to \(count)"
            }
        }
        return (floor, reason)
    }

    static func formatSeconds(_ value: Double) -> String {
        RateText.format(value)
    }
}

/// The transfer status `agg watch` asks each refresh for its withdraw/deposit alert rules: the
/// rules' coins, on the watched venues that publish it (the rule's own venue, when it names one).
struct TransferWatch: Sendable {
    var coins: [String]
    var venues: [AdapterDescriptor]

    init?(_ setup: AlertSetup, plan: QuoteService.Plan, registry: AdapterRegistry) {
        let rules = setup.transferRules
        guard !rules.isEmpty else { return nil }
        coins = rules.map(\.symbol).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        venues = plan.venues.compactMap { registry.descriptor(id: $0) }.filter { descriptor in
            descriptor.supports(.transferStatus) && rules.contains { ($0.venue ?? descriptor.id) == descriptor.id }
        }
    }
}
