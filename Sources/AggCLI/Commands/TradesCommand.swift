import AggCore

/// `agg trades`: the latest public trades of one market on one venue.
public enum TradesCommand: Command {
    static let limit = Setting.venueCount("limit", short: "n", help: "How many trades", standard: defaultLimit)

    public static let spec = CommandSpec(
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

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .trades, options: options, registry: context.registry,
            command: spec.name)
        let limit = try target.count(
            arguments.flag(Self.limit), option: Self.limit, standard: defaultLimit,
            maximum: target.descriptor.limits.trades)
        let trades = try await target.fetch("\(target.market) trades", options: options, context: context) {
            service async throws(AggError) in
            try await service.trades(limit: limit)
        }
        Output.write(TradesRendering(trades: trades, target: target), options: options, console: context.console)
        return .success
    }
}
