import AggCore
import AggJSON
import AggStore
import FoundationEssentials

/// `agg compare`: one coin on every venue, converted into one currency, with each venue's
/// premium over the global venues (for KRW, the "kimchi premium").
public enum CompareCommand: Command {
    static let currency = CommonOptions.currency("Convert into this currency (default KRW).")
    static let usdt = Option<StablecoinValuation>(
        "usdt", value: "HOW",
        help: "Value USDT as one US dollar (assume, the default) or at a Korean venue's USDT/KRW (market).",
        parser: .choice())

    public static let spec = CommandSpec(
        name: "compare",
        summary: "Compare one coin across venues in one currency, with each venue's premium.",
        arguments: "SYMBOL",
        options: [currency, CommonOptions.exchange, usdt, CommonOptions.refresh] + CommonOptions.network,
        positionals: (1, 1),
        examples: [
            "agg compare BTC",
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
            shown as not listed and does not fail the command.
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
        let symbol = arguments.positionals[0]
        guard !symbol.contains("/") else {
            throw .usage("compare takes a coin such as BTC, not a market ('\(symbol)'); each venue uses its own quote")
        }
        let coin = try AssetCode.validate(symbol)
        let currency = arguments[Self.currency] ?? "KRW"
        let plan = try ComparePlan(
            coin: coin, currency: currency, stablecoins: arguments[Self.usdt] ?? .assume,
            named: options.exchanges.explicit ? options.exchanges.ids : [], registry: context.registry)

        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: plan.venues.map(\.venue) + plan.fxSources + plan.usdtVenues)
        // Stored rates are a convenience: without a usable database every source is asked.
        let store =
            options.offline || plan.fxSources.isEmpty
            ? nil : LocalStore.bestEffort(environment: context.environment, create: true)
        let service = CompareService(factory: factory, store: store, now: context.now)
        let report = await service.compare(plan, refresh: arguments[CommonOptions.refresh])
        Output.write(CompareRendering(report: report), options: options, console: context.console)
        for line in report.problemLines { context.console.printError("agg: " + line) }
        if report.comparison.rows.isEmpty && !report.hasFailures {
            context.console.printError("agg: no venue lists \(coin)")
            return .sourceFailed
        }
        return report.hasFailures ? .sourceFailed : .success
    }
}
