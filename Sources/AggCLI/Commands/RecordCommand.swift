import AggCore
import AggStore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `agg record`: a long-running collector that stores every venue's tickers, the FX rates and
/// optionally the premium board every interval, for `agg history`.
public enum RecordCommand: Command {
    static let premium = Flag("premium", help: "Also record the premium board (each KRW venue's premium, both bases).")
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "SECONDS", help: "",
            parser: .seconds(in: 1...86_400, expected: "seconds, such as 10 or 1m")),
        help:
            "Seconds between ticks, at least 1 (10s, 1m); a venue whose rate limit needs longer is fetched every few ticks",
        builtIn: defaultInterval, shown: ValueParser<Double>.durationText)
    static let retain = Setting(
        Option<Int64>(
            "retain", value: "DURATION", help: "",
            parser: .duration(minimum: 60, expected: "a duration such as 30d, 12h or 3600, at least 60 s")),
        help: "Delete recorded rows older than this, at least 1m", builtIn: defaultRetainSeconds,
        shown: { ValueParser<Double>.durationText(Double($0)) })
    static let count = Setting(
        Option<Int>(
            "count", short: "c", value: "N", help: "",
            parser: .wholeNumber(in: 1...Int.max, expected: "a whole number of ticks, 1 or more")),
        help: "Stop after N ticks", builtIn: DecidedPerRun("until Ctrl-C or SIGTERM"))
    static let quiet = Flag("quiet", help: "Print no progress (failures still go to stderr).")

    public static let spec = CommandSpec(
        name: "record",
        summary: "Record every venue's prices, the FX rates and the premium board over time, for agg history.",
        arguments: "[SYMBOL...]",
        options: [
            CommonOptions.exchange, premium, interval, retain, count, quiet, Settings.store,
        ] + AlertOptions.all + [
            CommonOptions.timeout,
            CommonOptions.offline,
        ],
        positionals: (0, nil),
        examples: [
            "agg record --premium",
            "agg record BTC ETH --exchange upbit,binance --interval 30s --retain 7d",
            "agg record --premium --quiet &",
        ],
        discussion: """
            Every interval each venue is asked once for all its tickers (coins named as
            SYMBOLs are kept, the others dropped; a venue without an all-tickers request is asked
            for each named coin), each FX source only when it is due (at its table's next update, a
            minute to five minutes after the last request, later after failures), and with
            --premium the premium board is made from the same tickers. One tick is stored in
            one transaction, with the time it was fetched, in the database (see agg config path).
            Each venue has its own deadline within the tick (half the interval, at most --timeout,
            retries included): a slow or failing venue is reported on stderr with its own error,
            one line each, and never delays the others or the next tick. A venue whose rate limit
            cannot take a request every interval is fetched every few ticks, and agg says so.
            Rows older than --retain are deleted in the background, a thousand at a time.
            Several recorders may share the database: each venue is recorded by one of them
            (a lease renewed every tick, lasting three intervals). SIGTERM or Ctrl-C finishes the
            tick in flight and exits 0; a killed recorder loses at most that tick, and started
            again on the same host and data folder takes its venues back at once. Progress: a
            status line on a terminal, one line a tick otherwise, none with --quiet.
            """
    )

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

    /// Each venue's deadline within a tick: `venueShare` of the interval, at most `--timeout`.
    static func venueDeadline(interval: Double, timeout: Double) -> Double {
        min(interval * venueShare, timeout)
    }

    /// The interval when `--interval` is not given.
    static let defaultInterval: Double = 10
    /// The retention when `--retain` is not given: 30 days.
    static let defaultRetainSeconds: Int64 = 30 * 86_400

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError) -> ExitCode {
        try await run(arguments, context: context, clock: .system)
    }

    /// `run` on `clock`, which tests replace.
    static func run(_ arguments: ParsedArguments, context: CLIContext, clock: RecorderClock) async throws(AggError)
        -> ExitCode
    {
        var options = try NetworkOptions(arguments, context: context)
        var symbols: [String] = []
        for text in arguments.positionals { symbols.append(try AssetCode.validate(text)) }
        let interval = arguments.value(Self.interval)
        let plan = try RecordService.plan(
            symbols: symbols, exchanges: options.exchanges, premium: arguments[Self.premium], interval: interval,
            registry: context.registry)
        // Every request of a venue, retries and rate-limit waits included, fits the venue's
        // share of the tick: a venue that answers an error (an FX source's HTTP 500) is
        // reported with that error, not as a timeout of the tick.
        let deadline = venueDeadline(interval: interval, timeout: options.timeouts.total)
        options.timeouts = HTTPTimeouts(connect: min(options.timeouts.connect, deadline), total: deadline)
        let factory = AdapterFactory(context: context, options: options, clock: clock.retry)
        try factory.announceOffline(venues: plan.venues.map(\.id) + plan.fxSources.map(\.id))
        let store = try await HistoryStores.open(arguments, context: context)
        var settings = RecordService.Settings(
            interval: interval, venueDeadline: deadline, retainSeconds: arguments.value(Self.retain))
        settings.deadlineGrace = interval * venueGraceShare
        settings.pruneEveryTicks = max(1, Int((60 / interval).rounded(.up)))
        let identity = identity(context)
        let service = RecordService(
            factory: factory, store: store, clock: clock, holder: identity.holder, settings: settings)
        let mode: RecordProgress.Mode =
            arguments[Self.quiet]
            ? .quiet
            : context.console.outputIsTerminal && context.environment["TERM"] != "dumb" ? .statusLine : .lines
        let alerts = try AlertSetup.make(
            arguments,
            scope: AlertSetup.Scope(
                command: "agg record", fields: plan.premiumCurrency == nil ? [.last] : [.last, .premium, .usdtPremium],
                elsewhere: plan.premiumCurrency == nil
                    ? "premiums need --premium; change is on agg watch" : "change is on agg watch",
                venues: plan.venues.map(\.descriptor), symbols: plan.symbols.isEmpty ? nil : plan.symbols.sorted(),
                localVenues: plan.venues.filter { $0.currency == plan.premiumCurrency }.map(\.id),
                asksTransferStatus: false),
            registry: context.registry, console: context.console)
        let progress = RecordProgress(console: context.console, mode: mode, debugNotes: context.debugNotes)
        progress.announce(plan, interval: interval)
        let count = arguments.flag(Self.count)
        // Stop signals, and a failed write of --alert-log, both end the loop after its tick.
        let (stops, stop) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let interrupts = context.interrupts()
        let forwarding = Task {
            for await _ in interrupts {
                stop.yield()
                break
            }
        }
        // Alerts run on the ticks in order, one at a time, off the recording loop: their state is
        // kept in the same store (a restart does not fire again what already fired).
        let (reports, report) = AsyncStream.makeStream(of: RecordService.TickReport.self)
        let alerting = Task { () -> Bool in
            guard let alerts else { return false }
            var monitor = AlertMonitor(rules: alerts.rules, settings: alerts.settings, store: store)
            for await tick in reports where tick.storeError == nil {
                let outcome = await alerts.tick(
                    AlertObservations(recorded: tick.recorded, symbols: alerts.symbols), at: tick.time,
                    monitor: &monitor)
                if outcome.failed {
                    stop.yield()
                    return true
                }
            }
            return false
        }
        let totals = await service.run(plan, count: count, interrupts: stops) { tick, totals in
            progress.tick(tick, totals: totals)
            if alerts != nil { report.yield(tick) }
        }
        report.finish()
        let alertLogFailed = await alerting.value
        forwarding.cancel()
        await alerts?.delivery.finish()
        let stopped = count.map { totals.ticks < $0 } ?? true
        progress.finish(totals, stopped: stopped)
        // The identity's lock is held to the end of the run.
        withExtendedLifetime(identity) {}
        if alertLogFailed { return .outputFailure }
        return !stopped && totals.lastFailed ? .sourceFailed : .success
    }

    /// Who holds this recorder's venue leases: the host and the data folder's recorder id (see
    /// `RecorderIdentity`), kept alive, with its lock, for the whole run.
    static func identity(_ context: CLIContext) -> RecorderIdentity {
        guard let location = try? StoreLocation.resolve(environment: context.environment),
            (try? location.createDirectory()) != nil
        else { return RecorderIdentity.processOnly() }
        return RecorderIdentity.claim(folder: location.directory)
    }
}
