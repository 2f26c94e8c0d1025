import AggCore
import AggOptions

/// What `agg record` was asked, checked before anything is fetched or stored: the venues and
/// FX sources to record, the interval and each venue's deadline within it, the retention, the
/// alert rules (checked against what record can see) and how progress is shown.
package struct RecordRequest: Sendable {
    /// The share of the interval a venue's requests may take (retries and rate-limit waits
    /// included): half. The other half is for storing the tick, the alerts and a loaded
    /// machine's delays, so that a hung venue never makes a tick late enough to skip the next
    /// (at four fifths, as before, a hung venue used 80-89 % of the interval and ticks were
    /// skipped under load). A tick costs about 52 ms of CPU (performance.md), a tenth of the
    /// half left at `--interval 1`.
    static let venueShare = 0.5
    /// The share of the interval after the venue's deadline at which its fetch is abandoned
    /// even if the transport has not given up (a backstop; the transport's own deadline, which
    /// reports the venue's last answer or a timeout, comes first).
    static let venueGraceShare = 0.1
    /// The interval when `--interval` is not given.
    static let defaultInterval: Double = 10
    /// The retention when `--retain` is not given: 30 days.
    static let defaultRetainSeconds: Int64 = 30 * 86_400

    /// What `--stream` follows: each recorded venue that declares `.stream`, with the named coins
    /// in its home currency; the other venues are asked over REST as without `--stream`.
    /// Where a stream is down past the fallback time its markets are polled every `interval`.
    static func live(symbols: [String], plan: RecordService.Plan, interval: Double, offline: Bool) throws(AggError)
        -> LiveQuoteRequest
    {
        if offline { throw .usage("--stream follows live streams: it cannot be used with --offline") }
        guard !symbols.isEmpty else {
            throw .usage("--stream follows the coins named: name them (agg record BTC ETH --stream)")
        }
        let requests = plan.venues.filter { $0.descriptor.supports(.stream) }.map { venue in
            QuoteService.VenueRequest(venue: venue.id, markets: symbols.map { Market(base: $0, quote: venue.currency) })
        }
        guard !requests.isEmpty else {
            throw .usage(
                "--stream: none of the venues recorded has a stream ("
                    + plan.venues.map(\.id).joined(separator: ", ") + "); see 'agg exchanges'")
        }
        return LiveQuoteRequest(
            plan: QuoteService.Plan(requests: requests, all: false, quoteCurrency: nil), interval: interval)
    }

    /// Each venue's deadline within a tick: `venueShare` of the interval, at most `--timeout`.
    static func venueDeadline(interval: Double, timeout: Double) -> Double {
        min(interval * venueShare, timeout)
    }

    /// The network options, their timeouts cut to each venue's deadline.
    package var options: NetworkOptions
    package var plan: RecordService.Plan
    package var settings: RecordService.Settings
    /// Ticks to record; `nil` until stopped.
    package var count: Int?
    /// `--quiet`: no progress, failures only.
    package var quiet: Bool
    /// `--events`: also record market events.
    package var events: Bool
    /// With `--alert`: the rules and where alerts go.
    package var alerts: AlertRequest?
    /// With `--stream`: the recorded venues that stream and the named coins' markets on each,
    /// for `LiveQuoteService` (`RecordStreams`); `nil` without `--stream`.
    package var live: LiveQuoteRequest?

    /// Seconds between ticks.
    package var interval: Double { settings.interval }

    /// The venues and FX sources announced as answering from recordings under `--offline`.
    package var sources: [String] { plan.venues.map(\.id) + plan.fxSources.map(\.id) }

    /// - Throws: a usage error for a bad symbol or venue, a venue that cannot take part when
    ///   `--exchange` names it, `--premium` without the venues it needs, an alert rule record
    ///   cannot evaluate, or `--stream` without coins, with `--offline` or with no venue that
    ///   streams.
    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        options = try NetworkOptions(arguments, context: context)
        var symbols: [String] = []
        for text in arguments.positionals { symbols.append(try AssetCode.validate(text)) }
        let interval = arguments.value(RecordOptions.interval)
        let plan = try RecordService.plan(
            symbols: symbols, exchanges: options.exchanges, premium: arguments[RecordOptions.premium],
            interval: interval, registry: context.registry)
        self.plan = plan
        // Every request of a venue, retries and rate-limit waits included, fits the venue's
        // share of the tick: a venue that answers an error (an FX source's HTTP 500) is
        // reported with that error, not as a timeout of the tick.
        let deadline = Self.venueDeadline(interval: interval, timeout: options.timeouts.total)
        options.timeouts = HTTPTimeouts(connect: min(options.timeouts.connect, deadline), total: deadline)
        settings = RecordService.Settings(
            interval: interval, venueDeadline: deadline, retainSeconds: arguments.value(RecordOptions.retain))
        settings.deadlineGrace = interval * Self.venueGraceShare
        settings.pruneEveryTicks = max(1, Int((60 / interval).rounded(.up)))
        count = arguments.flag(RecordOptions.count)
        quiet = arguments[RecordOptions.quiet]
        events = arguments[RecordOptions.events]
        if arguments[RecordOptions.stream] {
            live = try Self.live(symbols: symbols, plan: plan, interval: interval, offline: options.offline)
        }
        alerts = try AlertRequest.make(
            arguments,
            scope: AlertSetup.Scope(
                command: "agg record", fields: plan.premiumCurrency == nil ? [.last] : [.last, .premium, .usdtPremium],
                elsewhere: plan.premiumCurrency == nil
                    ? "premiums need --premium; change is on agg watch" : "change is on agg watch",
                venues: plan.venues.map(\.descriptor), symbols: plan.symbols.isEmpty ? nil : plan.symbols.sorted(),
                localVenues: plan.venues.filter { $0.currency == plan.premiumCurrency }.map(\.id),
                asksTransferStatus: false, recordsEvents: arguments[RecordOptions.events]),
            context: context)
    }
}
