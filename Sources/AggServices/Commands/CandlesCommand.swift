import AggCore
import AggOptions
import FoundationEssentials

/// `agg candles`: OHLCV bars of one market on one venue, as a table or a chart of the closes.
package enum CandlesCommand {
    static let interval = Setting(
        Option<CandleInterval>("interval", short: "i", value: "INTERVAL", help: "", parser: .choice()),
        help: "Bar length", builtIn: .oneMinute, shown: \.rawValue)
    static let limit = Setting.venueCount(
        "limit", short: "n", help: "How many of the latest bars", standard: defaultLimit)
    static let chart = Flag("chart", help: "Draw the closes as a line chart sized to the terminal.")

    package static let spec = CommandSpec(
        name: "candles",
        summary: "Show price bars (open, high, low, close, volume) of a market, or chart them.",
        arguments: "SYMBOL",
        options: [CommonOptions.singleExchange, CommonOptions.quote, interval, limit, chart] + CommonOptions.network,
        positionals: (1, 1),
        examples: [
            "agg candles BTC --exchange bithumb --interval 1h --limit 24",
            "agg candles BTC --exchange bithumb --chart",
            "agg candles ETH/KRW -e bithumb --format csv",
        ],
        discussion: """
            Bars are oldest first; times are the start of each bar, in UTC. --chart draws the
            closes with braille dots, labelled with the exact lowest and highest close.
            """,
        venueCapability: .candles
    )

    /// The bars shown when `--limit` is not given.
    static let defaultLimit = 60
    /// Lines of the chart's plot.
    static let chartHeight = 12
}
