import AggCore
import AggOptions

/// What `agg quote` and `/v1/quote` ask for, checked: which venues, which markets, and how old
/// a cached quote may be to stand in for a failure. Built from the parsed options and settings
/// (the command line, or `agg serve`'s query turned into one); holds every validation, so that
/// nothing is asked before the whole request is known to be good.
package struct QuoteRequest: Sendable {
    var plan: QuoteService.Plan
    /// Seconds a cached quote may be old to stand in for a failed one (`--max-stale`).
    var maxStaleSeconds: Int64
    /// How old a quote may be before it is shown stale (`--stale-after`).
    package var staleAfter: Duration

    package init(_ arguments: ParsedArguments, options: NetworkOptions, context: CLIContext) throws(AggError) {
        let all = arguments[QuoteCommand.all]
        if !all && arguments.positionals.isEmpty {
            throw .usage("name at least one SYMBOL, or --all; usage: agg \(QuoteCommand.spec.usage)")
        }
        if all && !arguments.positionals.isEmpty {
            throw .usage("--all lists every market; give it without symbols")
        }
        maxStaleSeconds = context.settings(arguments).value(QuoteCommand.maxStale)
        staleAfter = .seconds(context.settings(arguments).value(Settings.staleAfter))
        plan = try QuoteService.plan(
            symbols: arguments.positionals, exchanges: options.exchanges, quoteCurrency: options.quoteCurrency,
            all: all, registry: context.registry)
    }

    /// The venues asked, in order.
    package var venues: [String] { plan.venues }
}
