import AggCore
import AggOptions
import FoundationEssentials

/// What `agg rates` and `/v1/rates` ask for, checked: one source's table from a base (with the
/// currencies kept, the threshold of a move, how many snapshots to keep and whether a stored
/// table may answer), or one rate from every source (`--source all`). Built from the parsed
/// options and settings (the command line, or `agg serve`'s query turned into one); holds every
/// validation, so that nothing is asked before the whole request is known to be good.
package enum RatesRequest: Sendable {
    /// One source's table.
    package struct Table: Sendable {
        var base: String
        var source: AdapterDescriptor
        /// `--to`, each code once; empty for every currency.
        var targets: [String]
        var comparison: RateComparison
        /// Snapshots kept per source and base (`--keep`).
        var keep: Int
        /// `--refresh`: ask the source even when the stored table is current.
        var refresh: Bool
    }

    case table(Table)
    /// `--source all`: the rate from `base` to `quote` of every source, against their median.
    case everySource(base: String, quote: String)

    package init(_ arguments: ParsedArguments, registry: AdapterRegistry) throws(AggError) {
        let base = try AssetCode.validateCurrency(arguments.positionals.first ?? "USD")
        if arguments.flag(RatesCommand.source) == "all" {
            let targets = arguments.flag(RatesCommand.to) ?? [RatesCommand.comparedCurrency]
            guard targets.count == 1, let quote = targets.first else {
                throw .usage("--source all compares one rate: name one currency with --to, such as --to KRW")
            }
            self = .everySource(base: base, quote: quote)
            return
        }
        var targets: [String] = []
        for code in arguments.flag(RatesCommand.to) ?? [] where !targets.contains(code) { targets.append(code) }
        self = .table(
            Table(
                base: base, source: try RatesRequest.source(arguments.flag(RatesCommand.source), registry: registry),
                targets: targets, comparison: RateComparison(threshold: arguments.value(RatesCommand.threshold)),
                keep: arguments.value(RatesCommand.keep), refresh: arguments[CommonOptions.refresh]))
    }

    /// The sources asked (for the `--offline` notice): the one source, or none for every source
    /// (each says so as it answers).
    package var venues: [String] {
        switch self {
        case .table(let table): [table.source.id]
        case .everySource: []
        }
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
        guard let descriptor = sources.first(where: { $0.id == RatesService.defaultSource }) ?? sources.first else {
            throw .usage("no registered source gives \(Capability.fxRates.title); see 'agg exchanges'")
        }
        return descriptor
    }
}

/// What `agg rates` shows: the fetched table set against the previous snapshot.
package struct RatesReport: Sendable {
    var source: AdapterDescriptor
    var table: RateTable
    var previousAsOf: Timestamp?
    /// In listing order: favorites first, then the rest by code.
    var changes: [RateChange]
    var threshold: Decimal
}
