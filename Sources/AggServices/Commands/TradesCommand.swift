import AggCore
import AggOptions

/// `agg trades`: the latest public trades of one market on one venue.
package enum TradesCommand {
    static let limit = Setting.venueCount("limit", short: "n", help: "How many trades", standard: defaultLimit)

    package static let spec = CommandSpec(
        name: "trades",
        summary: "Show the latest public trades of a market, newest first.",
        arguments: "SYMBOL",
        options: [CommonOptions.singleExchange, CommonOptions.quote, limit] + CommonOptions.network,
        positionals: (1, 1),
        examples: [
            "agg trades BTC --exchange bithumb",
            "agg trades BTC --exchange bithumb --limit 5 --format json",
        ],
        discussion: """
            Times are UTC (Bithumb reports Korean time; agg converts it). A buy is a trade where
            the taker bought (Bithumb's "bid"), a sell one where the taker sold ("ask").
            """,
        venueCapability: .trades
    )

    /// The trades shown when `--limit` is not given.
    static let defaultLimit = 20
}
