import AggCore
import AggOptions

/// What `agg watch` was asked, checked before any venue is asked: the quotes to refresh, the
/// alert rules (checked against what watch can see), the transfer status they need, and an
/// interval within every venue's rate limit.
package struct WatchRequest: Sendable {
    /// The shortest interval accepted, whatever the venues allow.
    static let minimumInterval: Double = 1
    /// The interval when `--interval` is not given (raised to what the rate limits need).
    static let defaultInterval: Double = 2
    /// The longest interval accepted.
    static let maximumInterval: Double = 86_400

    package var options: NetworkOptions
    package var plan: QuoteService.Plan
    /// With `--alert`: the rules and where alerts go.
    package var alerts: AlertRequest?
    /// The transfer status the withdraw/deposit rules need each refresh.
    var transfers: TransferWatch?
    /// Seconds between refreshes.
    package var interval: Double
    /// Refreshes to make (with `--stream`: updates to print); `nil` until stopped.
    package var count: Int?
    /// `--stream`: follow the venues' streams (`LiveQuoteService`) instead of polling.
    package var stream: Bool
    /// How old a quote may be before it is shown stale (`--stale-after`).
    package var staleAfter: Duration

    /// - Throws: a usage error for a bad symbol or venue, an alert rule watch cannot evaluate, or
    ///   an `--interval` shorter than the venues' rate limits allow (naming the venue that sets it).
    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        options = try NetworkOptions(arguments, context: context)
        let plan = try QuoteService.plan(
            symbols: arguments.positionals, exchanges: options.exchanges, quoteCurrency: options.quoteCurrency,
            all: false, registry: context.registry)
        self.plan = plan
        let alerts = try AlertRequest.make(
            arguments,
            scope: AlertSetup.Scope(
                command: "agg watch", fields: [.last, .change], elsewhere: "premiums are on agg premium --watch",
                venues: plan.venues.compactMap { context.registry.descriptor(id: $0) },
                symbols: plan.requests.flatMap(\.markets).map(\.base).reduce(into: []) {
                    if !$0.contains($1) { $0.append($1) }
                }),
            context: context)
        self.alerts = alerts
        let transfers = alerts.flatMap { TransferWatch($0, plan: plan, registry: context.registry) }
        self.transfers = transfers
        let (floor, reason) = Self.shortestInterval(
            plan.requests, registry: context.registry, extraRequests: transfers?.venues.map(\.id) ?? [])
        interval = max(Self.defaultInterval, floor)
        if let seconds = arguments.flag(WatchCommand.interval) {
            guard seconds >= floor else {
                throw .usage(
                    "--interval \(RateText.format(seconds)) is too short: at least \(RateText.format(floor)) s (\(reason))"
                )
            }
            interval = seconds
        }
        count = arguments[WatchCommand.count]
        staleAfter = .seconds(context.settings(arguments).value(Settings.staleAfter))
        stream = arguments[WatchCommand.stream]
        if stream, options.offline {
            throw .usage("--stream follows live streams: it cannot be used with --offline")
        }
        if stream, transfers != nil {
            throw .usage(
                "--stream does not follow transfer status: withdraw/deposit alert rules need polling (drop --stream)")
        }
    }

    /// What the live quote service is asked for `--stream`: the plan, polled every `interval`
    /// where there is no stream; a venue named with `--exchange` that has none says so.
    package var live: LiveQuoteRequest {
        LiveQuoteRequest(plan: plan, interval: interval, streams: true, announcesPolling: options.exchanges.explicit)
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
                    "\(descriptor.id) allows \(RateText.format(descriptor.requestsPerSecond)) requests/s and a refresh makes up to \(count)"
            }
        }
        return (floor, reason)
    }
}

/// The transfer status `agg watch` asks each refresh for its withdraw/deposit alert rules: the
/// rules' coins, on the watched venues that publish it (the rule's own venue, when it names one).
package struct TransferWatch: Sendable {
    var coins: [String]
    var venues: [AdapterDescriptor]

    package init?(_ alerts: AlertRequest, plan: QuoteService.Plan, registry: AdapterRegistry) {
        let rules = alerts.transferRules
        guard !rules.isEmpty else { return nil }
        coins = rules.map(\.symbol).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        venues = plan.venues.compactMap { registry.descriptor(id: $0) }.filter { descriptor in
            descriptor.supports(.transferStatus) && rules.contains { ($0.venue ?? descriptor.id) == descriptor.id }
        }
    }
}
