import AggCore
import AggOptions

/// What `agg compare` and `/v1/compare` ask for, checked: one plan a coin (its venues, the
/// currency, the USDT valuation, the FX policy) and whether stored rates may answer. Built from
/// the parsed options and settings (the command line, or `agg serve`'s query turned into one);
/// holds every validation, so that nothing is asked before the whole request is known to be good.
package struct CompareRequest: Sendable {
    /// One plan a coin, in the order given, each coin once.
    var plans: [ComparePlan]
    /// `--refresh`: ask every FX source even when its stored snapshot is current.
    var refresh: Bool
    /// How old a price may be before it is shown stale (`--stale-after`).
    package var staleAfter: Duration

    package init(_ arguments: ParsedArguments, options: NetworkOptions, context: CLIContext) throws(AggError) {
        var coins: [String] = []
        for symbol in arguments.positionals {
            guard !symbol.contains("/") else {
                throw .usage(
                    "compare takes a coin such as BTC, not a market ('\(symbol)'); each venue uses its own quote")
            }
            let coin = try AssetCode.validate(symbol)
            if !coins.contains(coin) { coins.append(coin) }
        }
        let currency = context.settings(arguments).value(CompareCommand.currency)
        let fx = try FXOptions(arguments, registry: context.registry)
        let named = options.exchanges.explicit ? options.exchanges.ids : []
        var plans: [ComparePlan] = []
        for coin in coins {
            plans.append(
                try ComparePlan(
                    coin: coin, currency: currency, stablecoins: arguments.value(CompareCommand.usdt), fx: fx,
                    named: named, registry: context.registry))
        }
        self.plans = plans
        refresh = arguments[CommonOptions.refresh]
        staleAfter = .seconds(context.settings(arguments).value(Settings.staleAfter))
    }

    /// Every venue and FX source the plans may ask, each once, in order.
    package var venues: [String] {
        plans.flatMap { $0.venues.map(\.venue) + $0.fxSources + $0.usdtVenues }
            .reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
}
