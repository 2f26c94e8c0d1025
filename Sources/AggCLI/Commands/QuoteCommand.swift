import AggCore
import FoundationEssentials

/// `agg quote`: tickers of one or more coins on one or more venues, fetched concurrently.
public enum QuoteCommand: Command {
    static let all = Flag("all", short: "a", help: "List every market of the venue(s) in one request each.")
    static let maxStale = Settings.maxStale

    public static let spec = CommandSpec(
        name: "quote",
        summary: "Show the current price of coins on one or more venues.",
        arguments: "SYMBOL...",
        options: [CommonOptions.exchange, CommonOptions.quote, all, maxStale] + CommonOptions.network,
        positionals: (0, nil),
        examples: [
            "agg quote BTC --exchange bithumb",
            "agg quote BTC ETH XRP --exchange bithumb --format json",
            "agg quote ETH/BTC --exchange bithumb",
            "agg quote --all --exchange bithumb --format csv",
            "agg quote BTC --max-stale 1h",
        ],
        discussion: """
            SYMBOL is a coin (BTC) or a market (BTC/KRW): 1 to 15 letters or digits per code.
            Several coins of one venue are fetched in one request where the venue allows it.
            Favorite coins (agg favorites add BTC) are listed first.
            Every quote fetched is cached in the local database (see AGG_HOME). When a venue
            fails and its cached quote of the market is younger than --max-stale (seconds, or
            30s, 10m, 1h), that quote is shown marked stale with its age; the failure is still
            reported on stderr and the exit code is still 1. --offline runs neither read nor
            write the cache.
            """
    )

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try QuoteRequest(arguments, options: run.options, context: context)
        try run.announce(request.venues)
        // Live runs create the database to cache their quotes; offline runs only read favorites
        // from one that exists, so that their output stays that of the recordings.
        let environment = context.environment
        let live = !run.options.offline
        let service = QuoteService(
            factory: run.factory, registry: context.registry,
            openStore: { LocalStore.bestEffort(environment: environment, create: live) }, caches: live,
            now: context.now)
        let answer = try await run.during("asking \(request.venues.joined(separator: ", "))") {
            () async throws(AggError) in try await service.run(request)
        }
        let failures = FailureGroup.groups(answer.outcomes).map(\.line)
        let code = run.finish(QuoteRendering(outcomes: answer.outcomes), problems: failures, failed: !failures.isEmpty)
        // The answer is out before the cache is written: the user never waits for the cache.
        context.debug(answer.rememberQuotes())
        return code
    }
}
