import AggCore
import AggOptions
import FoundationEssentials

/// What `agg premium` and `/v1/premium` ask for, checked: the board to fetch (venues, FX
/// sources, FX policy) and how to show it (basis, order, symbols, volume floor, top, favorites).
/// Built from the parsed options and settings (the command line, or `agg serve`'s query turned
/// into one); holds every validation, so that nothing is asked before the request is known good.
package struct PremiumRequest: Sendable {
    /// What the service fetches.
    package var service: PremiumService.Request
    var basis: PremiumRendering.Basis
    var order: PremiumBoard.Order
    var symbols: [String]
    var minimumVolume: Decimal?
    var top: Int?
    var favorites: Set<String>
    var attributions: [String: String]
    /// How old a price may be before it is shown stale (`--stale-after`).
    var staleAfter: Duration
    /// Global venues the board cannot ask (no all-tickers request).
    var notAsked: [String] = []
    /// `--watch`: the board refreshed every `interval` seconds, `count` times (`nil`: until stopped).
    package var watch: Watch?

    package struct Watch: Sendable {
        package var interval: Double
        package var count: Int?
        /// `--stream`: follow the venues' streams (`LiveQuoteService`) instead of refreshing.
        package var stream = false
    }

    package init(_ arguments: ParsedArguments, options: NetworkOptions, context: CLIContext, favorites: Set<String>)
        throws(AggError)
    {
        // Every option that only --watch uses is refused without it, alike.
        let watchOnly =
            [PremiumCommand.count.spec, PremiumCommand.interval.spec, PremiumCommand.stream.spec]
            + AlertOptions.all.map(\.spec)
        if !arguments[PremiumCommand.watch], let option = watchOnly.first(where: { arguments.contains($0) }) {
            throw .usage("--\(option.name) needs --watch")
        }
        let currency = context.settings(arguments).value(PremiumCommand.currency)
        var symbols: [String] = []
        for text in arguments.positionals { symbols.append(try AssetCode.validate(text)) }
        let fx = try FXOptions(arguments, registry: context.registry)
        let named = options.exchanges.explicit ? options.exchanges.ids : []
        let venues = try PremiumService.venues(in: context.registry, currency: currency, named: named)
        let fxSources = fx.sources(among: context.registry.descriptors(supporting: .fxRates))
        service = PremiumService.Request(
            currency: currency, venues: venues, fxSources: fxSources, fxSource: fx.source,
            maximumFXAgeSeconds: fx.maximumAgeSeconds)
        basis = arguments.value(PremiumCommand.basis)
        order = arguments.value(PremiumCommand.sort)
        self.symbols = symbols
        minimumVolume = arguments[PremiumCommand.minVolume]
        top = arguments[PremiumCommand.top]
        self.favorites = favorites
        attributions = Dictionary(fxSources.compactMap { d in d.attribution.map { (d.id, $0) } }) { a, _ in a }
        notAsked = PremiumService.notAsked(in: context.registry, currency: currency, named: named)
        staleAfter = .seconds(context.settings(arguments).value(Settings.staleAfter))
        if let amount = arguments[PremiumCommand.notional] {
            if arguments[PremiumCommand.watch] { throw .usage("--notional does not work with --watch") }
            if let venue = venues.first(where: { !$0.supports(.orderBook) }), !named.isEmpty {
                throw .usage("\(venue.id) has no order book to walk for --notional; see 'agg exchanges'")
            }
            service.atNotional = PremiumService.NotionalAsk(
                amount: amount, net: arguments[PremiumCommand.net], top: top ?? PremiumService.NotionalAsk.defaultTop,
                symbols: symbols, minimumVolume: minimumVolume, fees: context.takerFeeLookup,
                withdrawalOverrides: context.withdrawalFeeOverrides)
        } else if arguments[PremiumCommand.net] {
            throw .usage("--net needs --notional AMOUNT")
        }
        if arguments[PremiumCommand.watch] {
            watch = Watch(
                interval: try Self.interval(arguments, venues: venues + fxSources),
                count: arguments[PremiumCommand.count], stream: arguments[PremiumCommand.stream])
            if arguments[PremiumCommand.stream], options.offline {
                throw .usage("--stream follows live streams: it cannot be used with --offline")
            }
        }
    }

    /// What `--alert` rules may name: every field, the board's venues and symbols.
    package var alertScope: AlertSetup.Scope {
        AlertSetup.Scope(
            command: "agg premium", fields: AlertRule.Field.allCases, elsewhere: "", venues: service.venues,
            symbols: symbols.isEmpty ? nil : symbols,
            localVenues: service.venues.filter { $0.quoteCurrencies.contains(service.currency) }.map(\.id))
    }

    /// `--interval`, checked against every venue's rate limit (one request a venue a refresh).
    static func interval(_ arguments: ParsedArguments, venues: [AdapterDescriptor]) throws(AggError) -> Double {
        let floor = venues.map { $0.requestsPerSecond > 0 ? 1 / $0.requestsPerSecond : 1 }.max() ?? 1
        let seconds = arguments.flag(PremiumCommand.interval) ?? max(PremiumCommand.defaultInterval, floor)
        guard seconds >= floor else {
            throw .usage("--interval \(RateText.format(seconds)) is too short: at least \(RateText.format(floor)) s")
        }
        return seconds
    }

    package func rendering(_ result: PremiumService.Result) -> PremiumRendering {
        PremiumRendering(
            result: result, basis: basis,
            rows: PremiumRendering.select(
                result.board, order: order, basis: basis, symbols: symbols, minimumVolume: minimumVolume,
                top: service.atNotional == nil ? top : nil, favorites: favorites),
            attributions: attributions,
            globalVenues: service.venues.filter { !$0.quoteCurrencies.contains(service.currency) }.map(\.id),
            notAsked: notAsked, missingSymbols: missingSymbols(result), skipped: skipped(result),
            staleAfter: staleAfter)
    }

    /// The skipped entries of the venues' answers that concern the symbols asked for (all of
    /// them without symbols).
    package func skipped(_ result: PremiumService.Result) -> [SkippedEntry] {
        let coins = Set(symbols)
        return result.skipped.filter { $0.concerns(coins) }
    }

    /// The symbols asked for that the board does not list (none without a board: the FX
    /// failure says why).
    func missingSymbols(_ result: PremiumService.Result) -> [String] {
        guard let board = result.board else { return [] }
        return symbols.filter { symbol in !board.rows.contains { $0.base == symbol } }
    }

    /// What a board's answer says on standard error, in order, and whether it failed.
    package struct Problems: Sendable {
        /// Each with its `agg: ` prefix (`agg: debug: ` for the notes).
        package var lines: [String]
        package var failed: Bool
    }

    /// What failed (and, with `debug`, the entries skipped), and whether the board failed. A
    /// skipped entry costs only its own market, so it does not fail the board; when it is why a
    /// symbol asked for is missing from the board, it is an error line before the symbol's, so
    /// that the line saying the symbol is not listed is not the only explanation.
    package func problems(_ result: PremiumService.Result, debug: Bool) -> Problems {
        var lines = result.errors.map { "agg: \($0.description)" }
        let missing = missingSymbols(result)
        var explaining: [SkippedEntry] = []
        for entry in skipped(result) {
            if let market = entry.market, missing.contains(market.base) {
                explaining.append(entry)
            } else if debug {
                lines.append(CLIContext.debugLine(entry.description))
            }
        }
        lines += result.transfers.errors.map { "agg: warning: no transfer status: \($0.description)" }
        guard result.board != nil else { return Problems(lines: lines, failed: true) }
        lines += explaining.map { "agg: \($0.description)" }
        lines += missing.map { "agg: " + PremiumRendering.notListedMessage($0) }
        return Problems(lines: lines, failed: !result.errors.isEmpty || !missing.isEmpty)
    }
}
