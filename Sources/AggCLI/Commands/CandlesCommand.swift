import AggCore
import AggJSON
import FoundationEssentials

/// `agg candles`: OHLCV bars of one market on one venue, as a table or a chart of the closes.
public enum CandlesCommand: Command {
    public static let spec = CommandSpec(
        name: "candles",
        summary: "Show price bars (open, high, low, close, volume) of a market, or chart them.",
        usage:
            "candles SYMBOL --exchange ID [--interval 1m|3m|5m|10m|30m|1h|6h|12h|24h] [--limit N] [--chart]",
        options: [
            CommonOptions.singleExchange,
            CommonOptions.quote,
            OptionSpec(
                "interval", short: "i", value: "INTERVAL", help: "Bar length (default 1m).",
                allowed: CandleInterval.allCases.map(\.rawValue)),
            OptionSpec(
                "limit", short: "n", value: "N",
                help: "How many of the latest bars (default \(defaultLimit); at most the venue's limit)."),
            OptionSpec("chart", help: "Draw the closes as a line chart sized to the terminal."),
        ] + CommonOptions.network,
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
        let chart = arguments.has("chart")
        if chart {
            if let format = arguments.value("format"), format != "table" {
                throw .usage("--chart draws on the terminal; it cannot be combined with --format \(format)")
            }
            options.format = .table
        }
        let target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .candles, options: options, registry: context.registry,
            command: spec.name)
        let interval = arguments.value("interval").flatMap(CandleInterval.init(rawValue:)) ?? .oneMinute
        let offered = target.descriptor.limits.candleIntervals
        guard offered.contains(interval) else {
            throw .usage(
                "\(target.descriptor.id) does not offer \(interval.rawValue) candles; its intervals: "
                    + offered.map(\.rawValue).joined(separator: ", "))
        }
        let limit = try target.count(
            arguments, option: "limit", standard: defaultLimit, maximum: target.descriptor.limits.candles)
        let candles = try await target.fetch("\(target.market) candles", options: options, context: context) {
            adapter async throws(AggError) in
            try await adapter.candles(for: target.market, interval: interval, limit: limit)
        }
        let output: String
        switch options.format {
        case .json: output = json(candles, target: target, interval: interval).serialized()
        case .csv: output = csv(candles)
        case .table:
            output =
                chart
                ? self.chart(
                    candles, target: target, interval: interval, options: options,
                    width: context.console.drawingWidth)
                : table(candles, target: target, interval: interval, options: options, width: context.console.width)
        }
        context.console.print(output)
        return .success
    }

    static func json(_ candles: [Candle], target: MarketTarget, interval: CandleInterval) -> JSONValue {
        [
            "exchange": .string(target.descriptor.id),
            "symbol": .string(target.market.description),
            "interval": .string(interval.rawValue),
            "candles": .array(
                candles.map { candle in
                    [
                        "time": JSONOutput.time(candle.time),
                        "open": JSONOutput.decimal(candle.open),
                        "high": JSONOutput.decimal(candle.high),
                        "low": JSONOutput.decimal(candle.low),
                        "close": JSONOutput.decimal(candle.close),
                        "volume": JSONOutput.decimal(candle.volume),
                    ]
                }),
        ]
    }

    static func csv(_ candles: [Candle]) -> String {
        CSVWriter.render(
            header: ["time", "open", "high", "low", "close", "volume"],
            rows: candles.map { candle in
                [candle.time.description]
                    + [candle.open, candle.high, candle.low, candle.close, candle.volume].map(\.description)
            })
    }

    /// `BTC/KRW on bithumb · 1m · 60 bars`.
    static func caption(_ count: Int, target: MarketTarget, interval: CandleInterval) -> String {
        "\(target.market) on \(target.descriptor.id) · \(interval.rawValue) · \(count) bar\(count == 1 ? "" : "s")"
    }

    static func table(
        _ candles: [Candle], target: MarketTarget, interval: CandleInterval, options: NetworkOptions, width: Int
    ) -> String {
        let currency = target.market.quote
        let style = options.style
        var table = TextTable(columns: [
            .init("TIME (UTC)"), .init("OPEN", .right, priority: 2), .init("HIGH", .right, priority: 3),
            .init("LOW", .right, priority: 3), .init("CLOSE", .right), .init("VOLUME", .right, priority: 1),
        ])
        for candle in candles {
            let move = candle.close - candle.open
            table.append([
                .init(TableTime.text(candle.time)),
                .init(DecimalFormatting.price(candle.open, currency: currency)),
                .init(DecimalFormatting.price(candle.high, currency: currency)),
                .init(DecimalFormatting.price(candle.low, currency: currency)),
                .init(
                    DecimalFormatting.price(candle.close, currency: currency),
                    paint: { [style] in style.signed($0, move) }),
                .init(DecimalFormatting.grouped(candle.volume)),
            ])
        }
        return style.dim(caption(candles.count, target: target, interval: interval)) + "\n"
            + table.render(width: width, style: style)
    }

    /// The closes as a braille line chart, coloured by the move over the period, with the first
    /// and last bar times underneath and a summary line.
    static func chart(
        _ candles: [Candle], target: MarketTarget, interval: CandleInterval, options: NetworkOptions, width: Int
    ) -> String {
        let currency = target.market.quote
        let style = options.style
        guard let first = candles.first, let last = candles.last else {
            return style.dim(caption(0, target: target, interval: interval))
        }
        let move = last.close - first.open
        let lines = LineChart.render(
            candles.map(\.close), width: width, height: chartHeight,
            label: { DecimalFormatting.price($0, currency: currency) },
            xLabels: (TableTime.text(first.time), TableTime.text(last.time)),
            paint: { style.signed($0, move) })
        let percent = first.open == 0 ? nil : move / first.open * 100
        let arrow = move > 0 ? "▲" : move < 0 ? "▼" : "="
        let summary =
            "close \(DecimalFormatting.price(last.close, currency: currency)) \(currency)  "
            + style.signed(
                "\(arrow) \(DecimalFormatting.price(move, currency: currency))"
                    + (percent.map { " (\(DecimalFormatting.percent($0)))" } ?? ""), move)
            + " since \(TableTime.text(first.time)) UTC"
        return ([style.dim(caption(candles.count, target: target, interval: interval))] + lines + [summary])
            .joined(separator: "\n")
    }
}
