import AggCore
import AggJSON
import AggStore
import FoundationEssentials

/// `agg compare`: one coin on every venue, converted into one currency, with each venue's
/// premium over the global venues (for KRW, the "kimchi premium").
public enum CompareCommand: Command {
    static let currency = Settings.localCurrency(help: "Convert into this currency")
    static let usdt = Setting(
        Option<StablecoinValuation>("usdt", value: "HOW", help: "", parser: .choice()),
        help: "Value USDT as one US dollar (assume) or at a Korean venue's USDT/KRW (market)", builtIn: .assume,
        shown: \.rawValue)

    public static let spec = CommandSpec(
        name: "compare",
        summary: "Compare coins across venues in one currency, with each venue's premium.",
        arguments: "SYMBOL...",
        options: [
            currency, CommonOptions.exchange, usdt, CommonOptions.fxSource, CommonOptions.maxFXAge,
            CommonOptions.refresh,
        ] + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg compare BTC",
            "agg compare BTC ETH XRP",
            "agg compare ETH --in USD --format json",
            "agg compare BTC --exchange upbit,binance,coinbase --usdt market",
            "agg compare USDT",
        ],
        discussion: """
            SYMBOL is a coin (BTC); each venue is asked for it in its home currency, all at once,
            together with the exchange rates the conversion needs. The reference price is the
            median of the venues not quoted in the target currency (for KRW: the global venues),
            or of all venues when there are none; PREMIUM is each venue's price over it. For USDT
            (or USDC) the reference is the US dollar at the FX rate, USDT = USD: PREMIUM is each
            venue's tether premium (agg compare USDT). A venue that does not list the coin is
            shown as not listed and does not fail the command. Several coins are compared at once,
            one block each (JSON: {"comparisons":[...]}, CSV: one table); the FX rates are asked
            for once.
            The FX rate is the freshest one that answered, or the one of the source named with
            --fx (then the only FX source asked); a rate older than --max-fx-age (default 3 days,
            counted from the newest price) is refused, as agg premium refuses it: the conversions
            needing it fail with why, exit 1.
            The exchange rates fetched are stored as snapshots in the local database (as agg rates
            does); while the stored USD snapshot's next update is still to come, it is used
            without asking the FX source (--refresh asks anyway; --offline neither reads nor
            writes the database).
            """
    )

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        var coins: [String] = []
        for symbol in arguments.positionals {
            guard !symbol.contains("/") else {
                throw .usage(
                    "compare takes a coin such as BTC, not a market ('\(symbol)'); each venue uses its own quote")
            }
            let coin = try AssetCode.validate(symbol)
            if !coins.contains(coin) { coins.append(coin) }
        }
        let currency = context.settings(arguments).value(Self.currency)
        let fx = try FXOptions(arguments, registry: context.registry)
        var plans: [ComparePlan] = []
        for coin in coins {
            plans.append(
                try ComparePlan(
                    coin: coin, currency: currency, stablecoins: arguments.value(Self.usdt), fx: fx,
                    named: options.exchanges.explicit ? options.exchanges.ids : [], registry: context.registry))
        }

        let factory = AdapterFactory(context: context, options: options)
        let announced = plans.flatMap { $0.venues.map(\.venue) + $0.fxSources + $0.usdtVenues }
        try factory.announceOffline(venues: announced.reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        // Stored rates are a convenience: without a usable database every source is asked.
        let store =
            options.offline || plans.allSatisfy(\.fxSources.isEmpty)
            ? nil : LocalStore.bestEffort(environment: context.environment, create: true)
        var service = CompareService(factory: factory, store: store, now: context.now)
        service.debug = { [context] note in context.debug(note) }
        let reports = await service.compare(plans, refresh: arguments[CommonOptions.refresh])
        var renderings: [CompareRendering] = []
        for report in reports {
            var rendering = CompareRendering(report: report)
            if !options.offline {
                rendering.percentiles = await PremiumPercentiles.load(
                    store: store ?? LocalStore.bestEffort(environment: context.environment, create: false),
                    current: report.outcomes.compactMap { venue, outcome in
                        guard case .compared(let row) = outcome, let percent = row.premiumPercent else { return nil }
                        return PremiumPercentiles.Current(
                            exchange: venue.venue, symbol: report.plan.coin, percent: percent)
                    }, now: context.now())
            }
            renderings.append(rendering)
        }
        if let rendering = renderings.first, renderings.count == 1 {
            Output.write(rendering, options: options, console: context.console)
        } else {
            Output.write(CompareRenderings(renderings: renderings), options: options, console: context.console)
        }
        var failed = false
        for report in reports {
            for line in report.problemLines { context.console.printError("agg: " + line) }
            if report.comparison.rows.isEmpty && !report.hasFailures {
                context.console.printError("agg: no venue lists \(report.plan.coin)")
                failed = true
            }
            failed = failed || report.hasFailures
        }
        return failed ? .sourceFailed : .success
    }
}
