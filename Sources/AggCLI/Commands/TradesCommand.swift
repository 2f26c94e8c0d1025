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
        let run = try NetworkRun(arguments, context: context)
        let request = try TradesRequest(arguments, options: run.options, registry: context.registry)
        let trades = try await run.fetch("\(request.target.market) trades", from: request.target) {
            service async throws(AggError) in try await service.run(request)
        }
        return run.finish(TradesRendering(trades: trades, target: request.target), failed: false)
    }
}
