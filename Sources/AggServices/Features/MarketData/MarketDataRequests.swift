import AggCore
import AggOptions

/// What `agg book` asks for, checked: one market on one venue that has an order book, and the
/// levels a side within the venue's limit.
package struct BookRequest: Sendable {
    package var target: MarketTarget
    var depth: Int

    package init(_ arguments: ParsedArguments, options: NetworkOptions, registry: AdapterRegistry) throws(AggError) {
        target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .orderBook, options: options, registry: registry,
            command: BookCommand.spec.name)
        depth = try target.count(
            arguments.flag(BookCommand.depth), option: BookCommand.depth, standard: BookCommand.defaultDepth,
            maximum: target.descriptor.limits.bookDepth)
    }
}

/// What `agg trades` asks for, checked: one market on one venue that publishes trades, and how
/// many within the venue's limit.
package struct TradesRequest: Sendable {
    package var target: MarketTarget
    var limit: Int

    package init(_ arguments: ParsedArguments, options: NetworkOptions, registry: AdapterRegistry) throws(AggError) {
        target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .trades, options: options, registry: registry,
            command: TradesCommand.spec.name)
        limit = try target.count(
            arguments.flag(TradesCommand.limit), option: TradesCommand.limit, standard: TradesCommand.defaultLimit,
            maximum: target.descriptor.limits.trades)
    }
}

/// What `agg candles` asks for, checked: one market on one venue that has bars, an interval the
/// venue offers, how many within its limit, and whether they are charted (a table only).
package struct CandlesRequest: Sendable {
    package var target: MarketTarget
    package var interval: CandleInterval
    var limit: Int
    package var chart: Bool

    package init(_ arguments: ParsedArguments, options: NetworkOptions, registry: AdapterRegistry) throws(AggError) {
        chart = arguments[CandlesCommand.chart]
        if chart, let format = arguments.flag(CommonOptions.format), format != .table {
            throw .usage("--chart draws on the terminal; it cannot be combined with --format \(format.rawValue)")
        }
        target = try MarketTarget.resolve(
            symbol: arguments.positionals[0], capability: .candles, options: options, registry: registry,
            command: CandlesCommand.spec.name)
        interval = arguments.value(CandlesCommand.interval)
        let offered = target.descriptor.limits.candleIntervals
        guard offered.contains(interval) else {
            throw .usage(
                "\(target.descriptor.id) does not offer \(interval.rawValue) candles; its intervals: "
                    + offered.map(\.rawValue).joined(separator: ", "))
        }
        limit = try target.count(
            arguments.flag(CandlesCommand.limit), option: CandlesCommand.limit, standard: CandlesCommand.defaultLimit,
            maximum: target.descriptor.limits.candles)
    }
}

extension MarketDataService {
    /// The order book `request` asks for.
    package func run(_ request: BookRequest) async throws(AggError) -> OrderBook {
        try await orderBook(depth: request.depth)
    }

    /// The trades `request` asks for, newest first.
    package func run(_ request: TradesRequest) async throws(AggError) -> [Trade] {
        try await trades(limit: request.limit)
    }

    /// The bars `request` asks for, oldest first.
    package func run(_ request: CandlesRequest) async throws(AggError) -> [Candle] {
        try await candles(interval: request.interval, limit: request.limit)
    }
}
