import AggCore
import AggOptions
import FoundationEssentials

/// `agg quote`: tickers of one or more coins on one or more venues, fetched concurrently.
package enum QuoteCommand {
    static let all = Flag("all", short: "a", help: "List every market of the venue(s) in one request each.")
    static let maxStale = Settings.maxStale

    package static let spec = CommandSpec(
        name: "quote",
        summary: "Show the current price of coins on one or more venues.",
        arguments: "SYMBOL...",
        options: [CommonOptions.exchange, CommonOptions.quote, all, maxStale, Settings.staleAfter]
            + CommonOptions.network,
        positionals: (0, nil),
        examples: [
            "agg quote BTC --exchange bithumb",
            "agg quote BTC ETH XRP --exchange bithumb --format json",
            "agg quote ETH/BTC --exchange bithumb",
            "agg quote --all --exchange bithumb --format csv",
            "agg quote BTC --max-stale 1h",
            "agg quote BTC --stale-after 10s",
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
            Every quote shows its age (AGE; JSON receivedAt and ageSeconds): from the venue's
            own time, else from when agg received it. A quote older than --stale-after (30s by
            default) is marked stale, as is a cached quote standing in for a failure.
            """
    )
}
