import AggCore
import AggOptions
import FoundationEssentials

/// `agg history`: a coin's recorded prices or premiums, with statistics per venue.
package enum HistoryCommand {
    static let premium = Flag(
        "premium", help: "Show the recorded premiums (percent, per venue and basis) instead of prices.")
    static let since = Setting(
        Option<HistorySince>("since", value: "WHEN", help: "", parser: HistorySince.parser),
        help: "From this long ago (24h, 7d) or this UTC date or time (2026-12-01, 2026-12-01T08:00Z)",
        builtIn: .ago(seconds: 86_400), shown: \.description)
    static let chart = Flag(
        "chart", help: "Draw each series as a line chart instead of listing the latest points.")

    package static let spec = CommandSpec(
        name: "history",
        summary: "A coin's recorded prices or premiums over time, with statistics per venue.",
        arguments: "SYMBOL",
        options: [
            CommonOptions.exchange, premium, since, chart, Settings.store, CommonOptions.format,
            CommonOptions.color,
            CommonOptions.noColor, CommonOptions.palette,
        ],
        positionals: (1, 1),
        examples: [
            "agg history BTC",
            "agg history BTC --exchange upbit,binance --since 7d --chart",
            "agg history XRP --premium --since 2026-12-01 --format csv",
        ],
        discussion: """
            Reads what agg record stored, from the database (see agg config path); it asks no
            venue. One series per venue and market (or venue and basis with --premium: usd is
            the FX basis, usdt the USDT basis), each with its count, minimum, maximum, mean, the
            latest value, its percentile (the share of the window's values at or below it, in
            percent, one decimal) and its z-score (against the window's mean and population
            standard deviation, two decimals; - when every value is the same). The table lists
            the latest points (or --chart draws each series); CSV and JSON hold every point with
            its time in ISO-8601 UTC. Nothing recorded in the window is not an error: the table
            says so on stderr, JSON has no series, CSV only its header.
            """
    )
}
