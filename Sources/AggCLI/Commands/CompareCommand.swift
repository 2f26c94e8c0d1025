import AggCore
import AggJSON
import AggStore
import FoundationEssentials

/// `agg compare`: one coin on every venue, converted into one currency, with each venue's
/// premium over the global venues (for KRW, the "kimchi premium").
public enum CompareCommand: Command {
    public static let spec = CommandSpec(
        name: "compare",
        summary: "Compare one coin across venues in one currency, with each venue's premium.",
        usage:
            "compare SYMBOL [--in CUR] [--exchange ID[,ID...]] [--usdt assume|market] [--refresh]"
            + " [--format table|json|csv] [--timeout S] [--offline]",
        options: [
            OptionSpec("in", short: "i", value: "CUR", help: "Convert into this currency (default KRW)."),
            CommonOptions.exchange,
            OptionSpec(
                "usdt", value: "HOW",
                help: "Value USDT as one US dollar (assume, the default) or at a Korean venue's USDT/KRW (market).",
                allowed: StablecoinValuation.allCases.map(\.rawValue)),
            CommonOptions.refresh,
        ] + CommonOptions.network,
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
        let currency = try AssetCode.validateCurrency(arguments.value("in") ?? "KRW")
        let stablecoins = arguments.value("usdt").flatMap(StablecoinValuation.init(rawValue:)) ?? .assume
        let plan = try ComparePlan(
            coin: coin, currency: currency, stablecoins: stablecoins,
            named: arguments.list("exchange").map { $0.lowercased() }, registry: context.registry)

        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: plan.venues.map(\.venue) + plan.fxSources + plan.usdtVenues)
        // Stored rates are a convenience: without a usable database every source is asked.
        let store =
            options.offline || plan.fxSources.isEmpty
            ? nil : LocalStore.bestEffort(environment: context.environment, create: true)
        let stored = arguments.has("refresh") ? [:] : plan.storedRates(in: store, now: context.now())
        let (report, fetched) = await plan.fetch(factory: factory, stored: stored)
        plan.save(fetched, in: store)

        context.console.print(
            CompareRendering(report: report, options: options, width: context.console.width).output())
        for line in report.problemLines { context.console.printError("agg: " + line) }
        if report.comparison.rows.isEmpty && !report.hasFailures {
            context.console.printError("agg: no venue lists \(coin)")
            return .sourceFailed
        }
        return report.hasFailures ? .sourceFailed : .success
    }
}

/// What to ask for: the coin on each venue, and the sources of the rates the conversion needs.
struct ComparePlan: Sendable {
    /// One venue's market, or why it is not asked.
    struct Venue: Sendable {
        var venue: String
        var market: Market
        /// Set when the venue is not asked at all (the coin is its own quote currency).
        var skipped: AggError?
    }

    var coin: String
    var currency: String
    var stablecoins: StablecoinValuation
    var venues: [Venue]
    /// The inputs the conversion needs.
    var inputs: Set<RateInput>
    /// FX adapters, in the order they are preferred.
    var fxSources: [String]
    /// Venues that may quote USDT in KRW, in the order they are preferred.
    var usdtVenues: [String]
    /// The credit each FX source asks for wherever its rates are shown, by id.
    var attributions: [String: String]

    /// The venue market for USDT priced in KRW.
    static let usdtMarket = Market(base: "USDT", quote: "KRW")

    init(
        coin: String, currency: String, stablecoins: StablecoinValuation, named: [String],
        registry: AdapterRegistry
    ) throws(AggError) {
        self.coin = coin
        self.currency = currency
        self.stablecoins = stablecoins
        var descriptors: [AdapterDescriptor] = []
        for id in named {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.ticker) else {
                throw .usage("\(descriptor.id) cannot give a ticker; see 'agg exchanges'")
            }
            if !descriptors.contains(where: { $0.id == descriptor.id }) { descriptors.append(descriptor) }
        }
        let explicit = !descriptors.isEmpty
        if !explicit { descriptors = registry.descriptors(supporting: .ticker) }
        venues = descriptors.compactMap { descriptor in
            let market = Market(base: coin, quote: descriptor.homeCurrency)
            guard coin == descriptor.homeCurrency else { return Venue(venue: descriptor.id, market: market) }
            guard explicit else { return nil }
            return Venue(
                venue: descriptor.id, market: market,
                skipped: .notListed(
                    venue: descriptor.id, market: market, code: "",
                    message: "\(coin) is \(descriptor.id)'s own quote currency"))
        }
        if venues.isEmpty { throw .usage("no registered venue can price \(coin); see 'agg exchanges'") }

        let asked = venues.filter { $0.skipped == nil }
        inputs = PriceComparison.inputs(
            coin: coin, currency: currency, quoteCurrencies: Set(asked.map(\.market.quote)),
            stablecoins: stablecoins)
        let fxDescriptors =
            inputs.contains { if case .fx = $0 { true } else { false } }
            ? registry.descriptors(supporting: .fxRates) : []
        fxSources = fxDescriptors.map(\.id)
        attributions = Dictionary(
            fxDescriptors.compactMap { descriptor in descriptor.attribution.map { (descriptor.id, $0) } }
        ) { first, _ in first }
        if inputs.contains(.usdtInKRW) {
            let korean = registry.descriptors(supporting: .ticker, quotedIn: Self.usdtMarket.quote).map(\.id)
            let compared = Set(asked.map(\.venue))
            usdtVenues = korean.filter { compared.contains($0) } + korean.filter { !compared.contains($0) }
        } else {
            usdtVenues = []
        }
    }

    /// The USD snapshot of each FX source that is still its latest answer (its next update is
    /// after `now`), by source id.
    func storedRates(in store: Store?, now: Timestamp) -> [String: RateTable] {
        guard let store else { return [:] }
        var tables: [String: RateTable] = [:]
        for source in fxSources {
            if let table = try? store.currentSnapshot(base: Conversion.fxBase, source: source, now: now) {
                tables[source] = table
            }
        }
        return tables
    }

    /// Stores the rate tables fetched as snapshots, best effort, keeping as many snapshots of
    /// each base as are already kept (at least `agg rates`' default), so that a longer
    /// `agg rates --keep` is not cut short.
    func save(_ tables: [RateTable], in store: Store?) {
        guard let store else { return }
        // A table with refused rates is not stored (the store would refuse it too).
        for table in tables where table.screened().refused.isEmpty {
            let kept = (try? store.snapshotCount(base: table.base)) ?? 0
            _ = try? store.saveSnapshot(table, keep: max(RatesCommand.defaultKeep, kept))
        }
    }

    /// Asks every venue, every FX source without a `stored` table and every USDT/KRW venue at
    /// once, then compares. Also returns the rate tables that were fetched (not the stored ones).
    func fetch(factory: AdapterFactory, stored: [String: RateTable] = [:]) async -> (CompareReport, [RateTable]) {
        async let venueAnswers = concurrentMap(venues) { venue in
            if let skipped = venue.skipped { return QuoteResult.failure(skipped) }
            return await Self.ticker(venue.market, on: venue.venue, factory: factory)
        }
        async let fxAnswers = concurrentMap(fxSources) { source in
            if let table = stored[source] { return Result<RateTable, AggError>.success(table) }
            return await .catching { () throws(AggError) in
                try await factory.adapter(id: source).rates(base: Conversion.fxBase)
            }
        }
        async let usdtAnswers = concurrentMap(usdtVenues) { venue in
            await Self.ticker(Self.usdtMarket, on: venue, factory: factory)
        }
        let venueResults = await venueAnswers
        let fxResults = await fxAnswers
        let usdtResults = await usdtAnswers
        let (values, unavailable) = rateValues(fx: fxResults, usdt: usdtResults)
        let fetched = zip(fxSources, fxResults).compactMap { source, result -> RateTable? in
            guard stored[source] == nil, case .success(let table) = result else { return nil }
            return table
        }
        let report = CompareReport(
            plan: self,
            results: venueResults,
            values: values,
            unavailable: unavailable,
            fxFailures: values.keys.contains { if case .fx = $0 { true } else { false } }
                ? []
                : zip(fxSources, fxResults).compactMap { source, result in
                    if case .failure(let error) = result { (source, error) } else { nil }
                })
        return (report, fetched)
    }

    /// `market` on `venue` (the venue's own not-found answer is already `.notListed`).
    private static func ticker(_ market: Market, on venue: String, factory: AdapterFactory) async -> QuoteResult {
        let adapter: any ExchangeAdapter
        do throws(AggError) {
            adapter = try factory.adapter(id: venue)
        } catch {
            return .failure(error)
        }
        return await QuoteResult.catching { () throws(AggError) in try await adapter.quote(for: market) }
    }

    /// The values of the inputs that could be had, and why the others could not.
    private func rateValues(fx: [Result<RateTable, AggError>], usdt: [QuoteResult])
        -> ([RateInput: RateValue], [RateInput: String])
    {
        var values: [RateInput: RateValue] = [:]
        var unavailable: [RateInput: String] = [:]
        for input in inputs.sorted() {
            switch input {
            case .fx(let target):
                var reasons: [String] = []
                for (source, result) in zip(fxSources, fx) {
                    switch result {
                    case .success(let table) where table.base != Conversion.fxBase:
                        reasons.append("\(source) answered rates from \(table.base), not \(Conversion.fxBase)")
                    case .success(let answered):
                        let table = answered.screened()
                        if let refusal = table.refused.first(where: { $0.code == target }) {
                            reasons.append("\(source): \(refusal)")
                            continue
                        }
                        guard let rate = target == table.base ? 1 : table.rates[target] else {
                            reasons.append("\(source) has no \(target) rate")
                            continue
                        }
                        if values[input] == nil {
                            values[input] = RateValue(value: rate, source: table.source, asOf: table.asOf)
                        }
                    case .failure(let error):
                        reasons.append(error.description)
                    }
                }
                if fxSources.isEmpty { reasons.append("no exchange-rate source is registered") }
                if values[input] == nil { unavailable[input] = reasons.joined(separator: "; ") }
            case .usdtInKRW:
                var reasons: [String] = []
                for (venue, result) in zip(usdtVenues, usdt) {
                    switch result {
                    case .success(let quote) where quote.last <= 0:
                        reasons.append("\(venue): \(Self.usdtMarket) price \(quote.last) is not a rate")
                    case .success(let quote):
                        if values[input] == nil {
                            values[input] = RateValue(
                                value: quote.last, source: "\(venue) \(Self.usdtMarket)", asOf: quote.timestamp)
                        }
                    case .failure(let error):
                        reasons.append("\(venue): \(error.summaryNamingNoMarket)")
                    }
                }
                if usdtVenues.isEmpty { reasons.append("no registered venue quotes in KRW") }
                if values[input] == nil { unavailable[input] = reasons.joined(separator: "; ") }
            }
        }
        return (values, unavailable)
    }
}

/// Everything `compare` learned: the comparison, the venues that failed or do not list the coin,
/// and why rates were missing.
struct CompareReport: Sendable {
    /// One venue's outcome, in the plan's order.
    enum Outcome: Sendable {
        case compared(PriceComparison.Row)
        case notListed(AggError)
        case failed(AggError)
    }

    var plan: ComparePlan
    var comparison: PriceComparison
    var outcomes: [(venue: ComparePlan.Venue, outcome: Outcome)]
    /// Why each missing input could not be had.
    var unavailable: [RateInput: String]
    /// FX sources that failed when no source gave the rates needed.
    var fxFailures: [(source: String, error: AggError)]

    init(
        plan: ComparePlan, results: [QuoteResult], values: [RateInput: RateValue],
        unavailable: [RateInput: String], fxFailures: [(String, AggError)]
    ) {
        self.plan = plan
        self.unavailable = unavailable
        self.fxFailures = fxFailures.map { (source: $0.0, error: $0.1) }
        let prices: [PriceComparison.Price] = zip(plan.venues, results).compactMap { venue, result in
            guard case .success(let quote) = result else { return nil }
            return PriceComparison.Price(exchange: venue.venue, market: quote.market, last: quote.last)
        }
        comparison = PriceComparison(
            coin: plan.coin, currency: plan.currency, prices: prices, stablecoins: plan.stablecoins, values: values)
        var rows = comparison.rows.makeIterator()
        outcomes = zip(plan.venues, results).map { venue, result in
            switch result {
            case .success:
                guard let row = rows.next() else {
                    return (venue, .failed(.decoding(venue: venue.venue, path: "$", detail: "no price")))
                }
                return (venue, .compared(row))
            case .failure(let error):
                return (venue, error.isNotListed ? .notListed(error) : .failed(error))
            }
        }
    }

    /// Why there is no premium at all, when a stablecoin's reference (the dollar at the FX
    /// rate) could not be had though some venue's price was converted.
    var referenceFailure: String? {
        let problems = comparison.referenceProblems
        guard comparison.reference == nil, !problems.isEmpty, comparison.rows.contains(where: { $0.converted != nil })
        else { return nil }
        return "no premium for \(plan.coin): " + text(problems)
    }

    /// Whether a venue or a conversion failed (exit code 1). Unlisted venues do not count.
    var hasFailures: Bool {
        if referenceFailure != nil { return true }
        return outcomes.contains { _, outcome in
            switch outcome {
            case .compared(let row): row.converted == nil
            case .notListed: false
            case .failed: true
            }
        }
    }

    /// Why `row` could not be converted, in one line.
    func conversionFailure(_ row: PriceComparison.Row) -> String {
        "cannot convert to \(plan.currency): " + text(row.problems)
    }

    /// `problems` in one line, each missing input with why it could not be had.
    private func text(_ problems: [Conversion.Problem]) -> String {
        problems.map { problem in
            guard case .missing(let input) = problem, let reason = unavailable[input] else {
                return problem.description
            }
            return "\(problem) (\(reason))"
        }.joined(separator: "; ")
    }

    /// One line per failure for standard error, without the `agg: ` prefix.
    var problemLines: [String] {
        let venueLines: [String] = outcomes.compactMap { venue, outcome in
            switch outcome {
            case .compared(let row) where row.converted == nil:
                "\(venue.venue) \(venue.market): \(conversionFailure(row))"
            case .failed(let error): "\(venue.venue) \(venue.market): \(error.summaryNamingNoMarket)"
            default: nil
            }
        }
        return venueLines + (referenceFailure.map { [$0] } ?? [])
    }
}
