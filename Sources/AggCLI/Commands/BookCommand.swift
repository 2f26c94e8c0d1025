import AggCore

/// `agg book`: the order book of one market on one venue, asks above bids with the spread
/// between them.
public enum BookCommand: Command {
    static let depth = Setting.venueCount("depth", short: "d", help: "Price levels a side", standard: defaultDepth)

    public static let spec = CommandSpec(
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

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .orderBook, options: options, registry: context.registry,
            command: spec.name)
        let depth = try target.count(
            arguments.flag(Self.depth), option: Self.depth, standard: defaultDepth,
            maximum: target.descriptor.limits.bookDepth)
        let book = try await target.fetch("the \(target.market) order book", options: options, context: context) {
            service async throws(AggError) in
            try await service.orderBook(depth: depth)
        }
        Output.write(BookRendering(book: book, target: target), options: options, console: context.console)
        return .success
    }
}
