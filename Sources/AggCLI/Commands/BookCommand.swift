import AggCore
import AggJSON
import FoundationEssentials

/// `agg book`: the order book of one market on one venue, asks above bids with the spread
/// between them.
public enum BookCommand: Command {
    public static let spec = CommandSpec(
        name: "book",
        summary: "Show the order book of a market: asks above bids, with the spread.",
        usage: "book SYMBOL --exchange ID [--depth N]",
        options: [
            CommonOptions.singleExchange,
            CommonOptions.quote,
            OptionSpec(
                "depth", short: "d", value: "N",
                help: "Price levels a side (default \(defaultDepth); at most the venue's limit)."),
        ] + CommonOptions.network,
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
            arguments, option: "depth", standard: defaultDepth, maximum: target.descriptor.limits.bookDepth)
        let book = try await target.fetch("the \(target.market) order book", options: options, context: context) {
            adapter async throws(AggError) in
            try await adapter.orderBook(for: target.market, depth: depth)
        }
        let output: String
        switch options.format {
        case .json: output = json(book, target: target).serialized()
        case .csv: output = csv(book)
        case .table: output = table(book, target: target, options: options, width: context.console.width)
        }
        context.console.print(output)
        return .success
    }

    static func json(_ book: OrderBook, target: MarketTarget) -> JSONValue {
        func levels(_ levels: [BookLevel]) -> JSONValue {
            .array(levels.map { ["price": JSONOutput.decimal($0.price), "amount": JSONOutput.decimal($0.amount)] })
        }
        return [
            "exchange": .string(target.descriptor.id),
            "symbol": .string(target.market.description),
            "timestamp": JSONOutput.time(book.timestamp),
            "bids": levels(book.bids),
            "asks": levels(book.asks),
        ]
    }

    static func csv(_ book: OrderBook) -> String {
        CSVWriter.render(
            header: ["side", "price", "amount"],
            rows: book.bids.map { ["bid", $0.price.description, $0.amount.description] }
                + book.asks.map { ["ask", $0.price.description, $0.amount.description] })
    }

    /// The spread and its size relative to the mid price, when both sides have a level.
    static func spread(_ book: OrderBook) -> (amount: Decimal, percentOfMid: Decimal)? {
        guard let ask = book.asks.first?.price, let bid = book.bids.first?.price else { return nil }
        let mid = (ask + bid) / 2
        let amount = ask - bid
        return (amount, mid == 0 ? 0 : amount / mid * 100)
    }

    static func table(_ book: OrderBook, target: MarketTarget, options: NetworkOptions, width: Int) -> String {
        let currency = target.market.quote
        let style = options.style
        var table = TextTable(columns: [
            .init("SIDE"), .init("PRICE", .right), .init("AMOUNT", .right), .init("TOTAL", .right, priority: 2),
            .init("VALUE (\(currency))", .right, priority: 1),
        ])
        func rows(_ levels: [BookLevel], side: String, direction: Decimal) -> [[TextTable.Cell]] {
            var total: Decimal = 0
            return levels.map { level in
                total += level.amount
                return [
                    .init(side, paint: { [style] in style.signed($0, direction) }),
                    .init(
                        DecimalFormatting.price(level.price, currency: currency),
                        paint: { [style] in style.signed($0, direction) }),
                    .init(DecimalFormatting.grouped(level.amount)),
                    .init(DecimalFormatting.grouped(total)),
                    .init(DecimalFormatting.money(level.price * level.amount, currency: currency)),
                ]
            }
        }
        for row in rows(book.asks, side: "ask", direction: -1).reversed() { table.append(row) }
        if let spread = spread(book) {
            table.append([
                .init("spread", paint: { [style] in style.dim($0) }),
                .init(DecimalFormatting.price(spread.amount, currency: currency)),
                .init(DecimalFormatting.fixed(spread.percentOfMid, places: 4) + "%"),
            ])
        }
        for row in rows(book.bids, side: "bid", direction: 1) { table.append(row) }
        let caption =
            "\(target.market) on \(target.descriptor.id) · \(book.asks.count) asks, \(book.bids.count) bids"
            + (book.timestamp.map { " · \(TableTime.text($0)) UTC" } ?? "")
        return style.dim(caption) + "\n" + table.render(width: width, style: style)
    }
}
