import AggCore
import FoundationEssentials

/// `agg candles`: OHLCV bars of one market on one venue, as a table or a chart of the closes.
public enum CandlesCommand: Command {
    static let interval = Setting(
        Option<CandleInterval>("interval", short: "i", value: "INTERVAL", help: "", parser: .choice()),
        help: "Bar length", builtIn: .oneMinute, shown: \.rawValue)
    static let limit = Setting.venueCount(
        "limit", short: "n", help: "How many of the latest bars", standard: defaultLimit)
    static let chart = Flag("chart", help: "Draw the closes as a line chart sized to the terminal.")

    public static let spec = CommandSpec(
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

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        var options = try NetworkOptions(arguments, context: context)
        let chart = arguments[Self.chart]
        if chart {
            if let format = arguments.flag(CommonOptions.format), format != .table {
                throw .usage("--chart draws on the terminal; it cannot be combined with --format \(format.rawValue)")
            }
            options.format = .table
        }
        let target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .candles, options: options, registry: context.registry,
            command: spec.name)
        let interval = arguments.value(Self.interval)
        let offered = target.descriptor.limits.candleIntervals
        guard offered.contains(interval) else {
            throw .usage(
                "\(target.descriptor.id) does not offer \(interval.rawValue) candles; its intervals: "
                    + offered.map(\.rawValue).joined(separator: ", "))
        }
        let limit = try target.count(
            arguments.flag(Self.limit), option: Self.limit, standard: defaultLimit,
            maximum: target.descriptor.limits.candles)
        let candles = try await target.fetch("\(target.market) candles", options: options, context: context) {
            service async throws(AggError) in
            try await service.candles(interval: interval, limit: limit)
        }
        let bars = CandlesRendering(candles: candles, target: target, interval: interval)
        if chart {
            Output.write(CandlesChartRendering(bars: bars), options: options, console: context.console)
        } else {
            Output.write(bars, options: options, console: context.console)
        }
        return .success
    }
}
