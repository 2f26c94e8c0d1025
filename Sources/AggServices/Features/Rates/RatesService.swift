import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// The rates use case: one source's table (the kept one while it is current, else asked),
/// screened, set against the previous kept table, kept unless it has refused rates, filtered to
/// the currencies asked and ordered favorites first; or one rate from every source.
package struct RatesService: Sendable {
    /// The FX source asked when none is named (`agg rates`, and first for `agg compare`).
    static let defaultSource = "exchangerate"
    /// How many tables of each source and base are kept when not told: today and the day before.
    static let defaultKeep = 2

    var factory: AdapterFactory
    var registry: AdapterRegistry
    var now: @Sendable () -> Timestamp
    /// Where `AGG_DEBUG` notes go (a table not kept because the database was busy).
    var debug: @Sendable (String?) -> Void = { _ in }

    /// The answer to `request`, with `archive`'s tables (`agg rates --source all` uses none).
    ///
    /// - Throws: the source's failure, or the archive's (`AggError.store`).
    package func run(_ request: RatesRequest, archive: any RatesArchive) async throws(AggError) -> RatesAnswer {
        switch request {
        case .everySource(let base, let quote):
            let result = await RateSourcesService(factory: factory, registry: registry, now: now)
                .run(base: base, quote: quote)
            let attributions = Dictionary(
                registry.descriptors(supporting: .fxRates).compactMap { d in d.attribution.map { (d.id, $0) } }
            ) { first, _ in first }
            return .everySource(RateSourcesRendering(result: result, attributions: attributions))
        case .table(let asked):
            return .table(try await table(asked, archive: archive))
        }
    }

    private func table(_ asked: RatesRequest.Table, archive: any RatesArchive) async throws(AggError)
        -> RatesTableAnswer
    {
        let source = asked.source
        let stored =
            factory.options.offline || asked.refresh
            ? nil : try archive.current(base: asked.base, source: source.id, now: now())
        let table: RateTable
        let previous: RateTable?
        var kept = true
        if let stored {
            table = stored.screened()
            previous = try archive.previous(base: table.base, source: table.source, olderThan: table.asOf)
        } else {
            table = try await factory.adapter(id: source.id).rates(base: asked.base).screened()
            // The previous table is read before the new one is kept: keeping prunes to `--keep`,
            // and with `--keep 1` it would take the previous one with it.
            previous = try archive.previous(base: table.base, source: table.source, olderThan: table.asOf)
            // A table with refused rates is shown, not kept: it must not become the day every
            // later run compares with.
            if table.refused.isEmpty {
                debug(try archive.keep(table, keep: asked.keep))
            } else {
                kept = false
            }
        }
        let favorites = try archive.favorites()
        var changes = asked.comparison.compare(table, with: previous)
        if !asked.targets.isEmpty {
            let wanted = Set(asked.targets)
            changes = changes.filter { wanted.contains($0.code) }
        }
        changes = FavoritesFirst.order(changes, favorites: favorites) { $0.code }
        let report = RatesReport(
            source: source, table: table, previousAsOf: previous?.asOf, changes: changes,
            threshold: asked.comparison.threshold)
        let refusedCodes = Set(table.refused.map(\.code))
        return RatesTableAnswer(
            report: report, kept: kept,
            missing: asked.targets.filter { table.rates[$0] == nil && !refusedCodes.contains($0) })
    }

    package init(
        factory: AdapterFactory, registry: AdapterRegistry, now: @escaping @Sendable () -> Timestamp,
        debug: @escaping @Sendable (String?) -> Void = { _ in }
    ) {
        self.factory = factory
        self.registry = registry
        self.now = now
        self.debug = debug
    }
}

/// One source's table as `agg rates` shows it, and what went wrong beside it.
package struct RatesTableAnswer: Sendable {
    var report: RatesReport
    /// Whether the table was kept (not when it has refused rates).
    var kept: Bool
    /// Currencies asked with `--to` that the table does not have.
    var missing: [String]
}

/// What `agg rates` and `/v1/rates` answer.
package enum RatesAnswer: Sendable, Rendering {
    case table(RatesTableAnswer)
    case everySource(RateSourcesRendering)

    package func json() -> JSONValue {
        switch self {
        case .table(let answer): RatesRendering(report: answer.report).json()
        case .everySource(let rendering): rendering.json()
        }
    }

    package func csv() -> String {
        switch self {
        case .table(let answer): RatesRendering(report: answer.report).csv()
        case .everySource(let rendering): rendering.csv()
        }
    }

    package func table(width: Int, style: TextStyle) -> String {
        switch self {
        case .table(let answer): RatesRendering(report: answer.report).table(width: width, style: style)
        case .everySource(let rendering): rendering.table(width: width, style: style)
        }
    }

    package var emptyTableNotice: String? {
        switch self {
        case .table: nil
        case .everySource(let rendering): rendering.emptyTableNotice
        }
    }

    /// One line a problem for standard error (`agg: ` included).
    package var problemLines: [String] {
        switch self {
        case .everySource(let rendering):
            return rendering.result.errors.map { "agg: \($0.description)" }
        case .table(let answer):
            let table = answer.report.table
            let source = answer.report.source.id
            return table.refused.map { "agg: \(source): \($0)" }
                + (answer.kept
                    ? []
                    : [
                        "agg: \(source): the \(table.base) table of \(TableTime.text(table.asOf)) UTC was not stored: it has refused rates"
                    ])
                + answer.missing.map { "agg: \(source): no rate for \($0) in the \(table.base) table" }
        }
    }

    /// Whether a rate was refused, a currency asked is missing, a source failed or none answered.
    package var failed: Bool {
        switch self {
        case .everySource(let rendering):
            !rendering.result.errors.isEmpty || rendering.result.sources.entries.isEmpty
        case .table(let answer): !answer.missing.isEmpty || !answer.report.table.refused.isEmpty
        }
    }
}
