import AggCore
import AggOptions

/// `agg book`: the order book of one market on one venue, asks above bids with the spread
/// between them.
package enum BookCommand {
    static let depth = Setting.venueCount("depth", short: "d", help: "Price levels a side", standard: defaultDepth)

    package static let spec = CommandSpec(
        name: "book",
        summary: "Show the order book of a market: asks above bids, with the spread.",
        arguments: "SYMBOL",
        options: [CommonOptions.singleExchange, CommonOptions.quote, depth] + CommonOptions.network,
        positionals: (1, 1),
        examples: [
            "agg book BTC --exchange bithumb",
            "agg book BTC --exchange bithumb --depth 5 --format json",
        ],
        discussion: """
            The table lists asks from the highest shown down to the best ask, then the spread, then
            bids from the best bid down, so the best prices meet in the middle. TOTAL is the amount
            available from the best price to that level.
            """,
        venueCapability: .orderBook
    )

    /// Levels a side when `--depth` is not given.
    static let defaultDepth = 10
}
