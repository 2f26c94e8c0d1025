import AggCore
import AggJSON
import FoundationEssentials

/// `agg trades`: the latest public trades of one market on one venue.
public enum TradesCommand: Command {
    public static let spec = CommandSpec(
        name: "trades",
        summary: "Show the latest public trades of a market, newest first.",
        usage: "trades SYMBOL --exchange ID [--limit N]",
        options: [
            CommonOptions.singleExchange,
            CommonOptions.quote,
            OptionSpec(
                "limit", short: "n", value: "N",
                help: "How many trades (default \(defaultLimit); at most the venue's limit)."),
        ] + CommonOptions.network,
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

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .trades, options: options, registry: context.registry,
            command: spec.name)
        let limit = try target.count(
            arguments, option: "limit", standard: defaultLimit, maximum: target.descriptor.limits.trades)
        let trades = try await target.fetch("\(target.market) trades", options: options, context: context) {
            adapter async throws(AggError) in
            try await adapter.trades(for: target.market, limit: limit)
        }
        let output: String
        switch options.format {
        case .json: output = json(trades, target: target).serialized()
        case .csv: output = csv(trades)
        case .table: output = table(trades, target: target, options: options, width: context.console.width)
        }
        context.console.print(output)
        return .success
    }

    static func json(_ trades: [Trade], target: MarketTarget) -> JSONValue {
        [
            "exchange": .string(target.descriptor.id),
            "symbol": .string(target.market.description),
            "trades": .array(
                trades.map { trade in
                    [
                        "time": JSONOutput.time(trade.time),
                        "side": .string(trade.side.rawValue),
                        "price": JSONOutput.decimal(trade.price),
                        "amount": JSONOutput.decimal(trade.amount),
                        "cost": JSONOutput.decimal(trade.cost),
                    ]
                }),
        ]
    }

    static func csv(_ trades: [Trade]) -> String {
        CSVWriter.render(
            header: ["time", "side", "price", "amount", "cost"],
            rows: trades.map { trade in
                [
                    trade.time.description, trade.side.rawValue, trade.price.description, trade.amount.description,
                    trade.cost.description,
                ]
            })
    }

    static func table(_ trades: [Trade], target: MarketTarget, options: NetworkOptions, width: Int) -> String {
        let currency = target.market.quote
        let style = options.style
        var table = TextTable(columns: [
            .init("TIME (UTC)"), .init("SIDE"), .init("PRICE", .right), .init("AMOUNT", .right),
            .init("COST", .right, priority: 1),
        ])
        for trade in trades {
            let direction: Decimal = trade.side == .buy ? 1 : -1
            table.append([
                .init(TableTime.text(trade.time)),
                .init(trade.side.rawValue, paint: { [style] in style.signed($0, direction) }),
                .init(
                    DecimalFormatting.price(trade.price, currency: currency),
                    paint: { [style] in style.signed($0, direction) }),
                .init(DecimalFormatting.grouped(trade.amount)),
                .init(DecimalFormatting.money(trade.cost, currency: currency)),
            ])
        }
        let caption = "\(target.market) on \(target.descriptor.id) · \(trades.count) latest trades"
        return style.dim(caption) + "\n" + table.render(width: width, style: style)
    }
}
