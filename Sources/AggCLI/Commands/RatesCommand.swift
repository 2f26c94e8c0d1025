import AggCore
import AggJSON
import AggStore
import FoundationEssentials

/// `agg rates`: the day's exchange rates from a base currency, each with its move since the
/// previous stored snapshot (▲ up, ▼ down), favorites first.
public enum RatesCommand: Command {
    /// The FX source used when `--source` is not given.
    public static let defaultSource = "exchangerate"
    /// How many snapshots of each base are kept when `--keep` is not given: today and the day before.
    public static let defaultKeep = 2
    /// The most snapshots `--keep` accepts.
    public static let maximumKeep = 1000

    /// The one currency `--source all` compares when `--to` is not given.
    static let comparedCurrency = "KRW"

    static let to = Setting(
        Option<[String]>(
            "to", short: "t", value: "CODE[,CODE...]", help: "",
            parser: .list(of: .currency, expected: "currency codes such as USD,JPY"), combine: +),
        help: "Only these currencies",
        builtIn: DecidedPerRun("every currency; \(comparedCurrency) with --source all"))
    static let threshold = Setting(
        Option<Decimal>(
            "threshold", value: "X", help: "", parser: .amount(expected: "a non-negative decimal such as 0.01")),
        help: "Smallest change marked up or down, in units of each currency",
        builtIn: RateComparison.defaultThreshold, shown: { "\($0)" })
    static let keep = Setting(
        Option<Int>("keep", value: "N", help: "", parser: .wholeNumber(in: 1...maximumKeep)),
        help: "Snapshots kept per source and base currency", builtIn: defaultKeep, shown: { "\($0)" })
    static let source = Setting(
        Option<String>("source", value: "ID", help: "", completion: .exchangeIDs, parser: .venueID),
        help:
            "The FX source: exchangerate, frankfurter, dunamu (see `agg exchanges`), or all:"
            + " one --to rate from every source",
        builtIn: DecidedPerRun("\(defaultSource), else the first FX source registered"))

    /// The command line `agg help` describes.
    public static let spec = CommandSpec(
        name: "rates",
        summary: "Show exchange rates from a base currency, with the change since the previous day.",
        arguments: "[BASE]",
        options: [to, threshold, keep, source, CommonOptions.refresh] + CommonOptions.network,
        positionals: (0, 1),
        examples: [
            "agg rates",
            "agg rates KRW --to USD,JPY,EUR",
            "agg rates USD --threshold 0.5 --format json",
            "agg rates USD --to KRW --source frankfurter",
            "agg rates --offline --format csv",
            "agg rates USD --to KRW --source all",
        ],
        discussion: """
            BASE is a three-letter currency code (default USD). Every answer is stored as a
            snapshot in the local database (see AGG_HOME) keyed by its source, base and the
            provider's update time (a later answer for the same time replaces it; --keep N
            snapshots per source and base are kept), and each rate is compared with the most
            recent stored snapshot of the same source older than it. A change greater than the
            threshold is marked ▲, one below minus the threshold ▼, anything else is flat; with
            nothing to compare with there is no trend (null in JSON). exchangerate and
            frankfurter (the ECB's reference rates, working days only) update once a day, so
            their arrows show the day's move; dunamu (Hana Bank, from USD, JPY, EUR, CNY, ... to
            KRW only) revises during the day.
            While the newest stored snapshot's next update is still to come, it answers without a
            request (--refresh asks anyway).
            A rate that is zero, negative or outside 1e-12 to 1e12 is refused: it is named on
            stderr (exit 1), the other rates are shown, and the table is not stored.
            --offline answers from the fixtures (Fixtures/, or AGG_FIXTURES: recorded answers and
            sample data) instead of the network and of the day's stored table; its answers are
            stored and compared like live ones, so point AGG_HOME elsewhere to keep them out of
            your database.
            Favorite currencies (agg favorites add KRW) are listed first.
            With --source all, one rate (--to, default KRW) is asked of every FX source at once,
            and for USD also the rate the market implies: USDT's price on every venue quoting in
            that currency (USDT = USD). Each is set against the median of the FX sources; nothing
            is stored.
            """
    )

    /// Runs the command; store failures are thrown as `AggError.store` (exit 70).
    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let base = try AssetCode.validateCurrency(arguments.positionals.first ?? "USD")
        if arguments.flag(Self.source) == "all" {
            return try await compareSources(base: base, arguments, context, options)
        }
        var targets: [String] = []
        for code in arguments.flag(Self.to) ?? [] where !targets.contains(code) { targets.append(code) }
        let comparison = RateComparison(threshold: arguments.value(Self.threshold))
        let keep = arguments.value(Self.keep)
        let source = try source(arguments.flag(Self.source), registry: context.registry)
        let refresh = arguments[CommonOptions.refresh]

        // The store comes before the network: a database that cannot be used fails at once,
        // without spending a request of the provider's daily quota.
        let store = try LocalStore.open(context)
        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: [source.id])
        // The day's snapshot, when stored, is the provider's latest answer: no request at all.
        let stored =
            options.offline || refresh
            ? nil : try store.currentSnapshot(base: base, source: source.id, now: context.now())
        let table: RateTable
        let previous: RateTable?
        var notStored = false
        if let stored {
            table = stored.screened()
            previous = try store.snapshot(base: table.base, source: table.source, olderThan: table.asOf)
        } else {
            table = try await factory.adapter(id: source.id).rates(base: base).screened()
            // The previous snapshot is read before the new one is stored: storing prunes to
            // `--keep`, and with `--keep 1` it would take the previous one with it.
            previous = try store.snapshot(base: table.base, source: table.source, olderThan: table.asOf)
            // A table with refused rates is shown, not stored: it must not become the day
            // every later run compares with.
            // Another process holding the database must not hold up the answer: the snapshot
            // is then not stored, and only AGG_DEBUG says so.
            if table.refused.isEmpty {
                if try store.saveSnapshotUnlessBusy(table, keep: keep) == .skippedBusy {
                    context.debug(SnapshotStoreNote.skipped(table, in: store))
                }
            } else {
                notStored = true
            }
        }
        let favorites = Set(try store.favorites(kind: .currency))

        var changes = comparison.compare(table, with: previous)
        if !targets.isEmpty {
            let wanted = Set(targets)
            changes = changes.filter { wanted.contains($0.code) }
        }
        changes = FavoritesFirst.order(changes, favorites: favorites) { $0.code }

        let report = RatesReport(
            source: source, table: table, previousAsOf: previous?.asOf, changes: changes,
            threshold: comparison.threshold)
        Output.write(RatesRendering(report: report), options: options, console: context.console)

        for refusal in table.refused { context.console.printError("agg: \(source.id): \(refusal)") }
        if notStored {
            context.console.printError(
                "agg: \(source.id): the \(table.base) table of \(TableTime.text(table.asOf)) UTC was not stored: it has refused rates"
            )
        }
        let refusedCodes = Set(table.refused.map(\.code))
        let missing = targets.filter { table.rates[$0] == nil && !refusedCodes.contains($0) }
        for code in missing {
            context.console.printError("agg: \(source.id): no rate for \(code) in the \(table.base) table")
        }
        return missing.isEmpty && table.refused.isEmpty ? .success : .sourceFailed
    }

    /// `--source all`: one rate from every source, against their median.
    static func compareSources(
        base: String, _ arguments: ParsedArguments, _ context: CLIContext, _ options: NetworkOptions
    ) async throws(AggError) -> ExitCode {
        let targets = arguments.flag(Self.to) ?? [comparedCurrency]
        guard targets.count == 1, let quote = targets.first else {
            throw .usage("--source all compares one rate: name one currency with --to, such as --to KRW")
        }
        let factory = AdapterFactory(context: context, options: options)
        let service = RateSourcesService(factory: factory, registry: context.registry, now: context.now)
        let result = await service.run(base: base, quote: quote)
        let attributions = Dictionary(
            context.registry.descriptors(supporting: .fxRates).compactMap { d in d.attribution.map { (d.id, $0) } }
        ) { first, _ in first }
        Output.write(
            RateSourcesRendering(result: result, attributions: attributions), options: options,
            console: context.console)
        for error in result.errors { context.console.printError("agg: \(error.description)") }
        return result.errors.isEmpty && !result.sources.entries.isEmpty ? .success : .sourceFailed
    }

    /// The FX source named by `--source`, or the default one (else the first FX source registered).
    static func source(_ id: String?, registry: AdapterRegistry) throws(AggError) -> AdapterDescriptor {
        if let id {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.fxRates) else {
                throw .usage("\(descriptor.id) cannot give \(Capability.fxRates.title); see 'agg exchanges'")
            }
            return descriptor
        }
        let sources = registry.descriptors(supporting: .fxRates)
        guard let descriptor = sources.first(where: { $0.id == defaultSource }) ?? sources.first else {
            throw .usage("no registered source gives \(Capability.fxRates.title); see 'agg exchanges'")
        }
        return descriptor
    }
}

/// What `agg rates` shows: the fetched table set against the previous snapshot.
struct RatesReport: Sendable {
    var source: AdapterDescriptor
    var table: RateTable
    var previousAsOf: Timestamp?
    /// In listing order: favorites first, then the rest by code.
    var changes: [RateChange]
    var threshold: Decimal
}
