import AggCore
import AggJSON
import AggStore
import FoundationEssentials

/// `agg premium`: the premium board, every coin listed both on local (KRW) venues and on global
/// ones, with each local venue's premium on the FX and the USDT basis.
public enum PremiumCommand: Command {
    static let currency = Settings.localCurrency(help: "The local currency")
    static let basis = Setting(
        Option<PremiumRendering.Basis>("basis", value: "BASIS", help: "", parser: .choice()),
        help: "Show premiums on the FX basis, the USDT basis, or both", builtIn: .both, shown: \.rawValue)
    static let sort = Setting(
        Option<PremiumBoard.Order>("sort", value: "ORDER", help: "", parser: .choice()),
        help: "Order coins by premium, volume or symbol", builtIn: .premium, shown: \.rawValue)
    static let minVolume = Option<Decimal>(
        "min-volume", value: "AMOUNT", help: "Hide coins whose 24 h local volume is below AMOUNT.",
        parser: .amount(expected: "an amount such as 1000000000"))
    static let watch = Flag("watch", short: "w", help: "Refresh the board until Ctrl-C (or --count refreshes).")
    /// Seconds between `--watch` refreshes unless a venue's rate limit needs longer.
    static let defaultInterval: Double = 10
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "SECONDS", help: "",
            parser: .seconds(in: 1...86_400, expected: "seconds, such as 10 or 1m")),
        help: "With --watch: seconds between refreshes, at least 1 and within every venue's rate limit",
        builtIn: DecidedPerRun("\(Int(defaultInterval))s, or longer when a venue's rate limit needs it"))
    static let count = Option<Int>(
        "count", short: "c", value: "N", help: "With --watch: stop after N refreshes.",
        parser: .wholeNumber(in: 1...Int.max, expected: "a whole number of refreshes, 1 or more"))
    static let top = Option<Int>(
        "top", short: "n", value: "N", help: "Show at most N coins.", parser: .wholeNumber(in: 1...maximumTop))

    public static let spec = CommandSpec(
        name: "premium",
        summary: "The premium board: every coin listed in Korea and abroad, with each venue's premium.",
        arguments: "[SYMBOL...]",
        options: [
            CommonOptions.exchange, currency, CommonOptions.fxSource, CommonOptions.maxFXAge, basis, sort, minVolume,
            top, watch, interval, count,
        ]
            + AlertOptions.all + CommonOptions.network,
        positionals: (0, nil),
        examples: [
            "agg premium",
            "agg premium BTC ETH XRP --basis usdt",
            "agg premium --sort volume --min-volume 1000000000 --top 20",
            "agg premium --fx frankfurter --format json",
            "agg premium --watch --interval 30 --top 30",
            "agg premium BTC --watch --alert 'upbit:BTC premium > 3%' --alert-log alerts.jsonl",
        ],
        discussion: """
            Each venue is asked once for every ticker (its all-tickers request), and each FX
            source once, all at the same time. A coin appears when at least one local venue (one
            quoting in the local currency) and one global venue (quoting in USD or USDT) list it.
            The global reference is the median of the global venues' prices in dollars (USDT =
            USD). PREMIUM is a local venue's price over that reference converted at the FX rate;
            USDT PREM is over the reference converted at USDT's price on the same venue, which
            takes the tether premium out. The tether premium (USDT's local price over the FX rate)
            heads the board. A price more than 50% away from the others is most likely another
            coin under the same ticker: it is marked and left out of the reference, and it never
            ranks a coin nor fires an alert. USDT's own row is measured against one US dollar, as the
            tether line is. With --sort premium, coins go by the premium shown first (USDT PREM with
            --basis usdt). Favorite coins
            come first. A coin whose deposits or withdrawals are closed on a venue (from the
            venues that publish transfer status, as agg status shows) is marked: its premium
            cannot be arbitraged there. With --watch the board is redrawn in place on a terminal (one JSON line,
            table or CSV rows per refresh otherwise); each refresh asks every venue once, and an FX
            source only when it is due: at its table's next update, a minute to five minutes
            after the last request, later after failures (see docs/serve.md).
            With --watch, --alert rules (last, premium, usdtPremium, change, withdraw/deposit
            closed) are checked on each refresh's board, with no extra request; an alert is one
            line on stderr, a line of --alert-log and a run of --on-alert (see docs/alerts.md).
            Exit status with --watch: 0, 1 when a source failed in the last refresh, 74 when
            --alert-log could not be written.
            """
    )

    static let maximumTop = 10_000

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        // Every option that only --watch uses is refused without it, alike.
        let watchOnly = [Self.count.spec, Self.interval.spec] + AlertOptions.all.map(\.spec)
        if !arguments[Self.watch], let option = watchOnly.first(where: { arguments.contains($0) }) {
            throw .usage("--\(option.name) needs --watch")
        }
        let favorites = LocalStore.favorites(
            kind: .symbol,
            in: options.offline ? nil : LocalStore.bestEffort(environment: context.environment, create: false))
        let board = try Self.board(arguments, context: context, options: options, favorites: favorites)
        let venues = board.request.venues
        let fxSources = board.request.fxSources
        // Checked before any request (or offline note), as every usage error is.
        let alerts = try AlertSetup.make(
            arguments,
            scope: AlertSetup.Scope(
                command: "agg premium", fields: AlertRule.Field.allCases, elsewhere: "", venues: venues,
                symbols: board.symbols.isEmpty ? nil : board.symbols,
                localVenues: venues.filter { $0.quoteCurrencies.contains(board.request.currency) }.map(\.id)),
            registry: context.registry, console: context.console)
        try board.service.factory.announceOffline(venues: venues.map(\.id) + fxSources.map(\.id))
        if arguments[Self.watch] {
            return try await PremiumWatch(board: board, context: context, options: options, alerts: alerts)
                .run(interval: try interval(arguments, venues: venues + fxSources), count: arguments[Self.count])
        }
        let result = try await ProgressLine.during(
            "asking \((venues + fxSources).map(\.id).joined(separator: ", "))", console: context.console,
            signals: context.stopSignals
        ) { () async in await board.service.run(board.request) }
        var rendering = board.rendering(result)
        if !options.offline {
            rendering.percentiles = await PremiumPercentiles.load(
                store: LocalStore.bestEffort(environment: context.environment, create: false),
                current: rendering.rows.flatMap { row in
                    row.venues.compactMap { venue in
                        venue.trustedPremiumPercent(on: .fx).map {
                            PremiumPercentiles.Current(exchange: venue.exchange, symbol: row.base, percent: $0)
                        }
                    }
                }, now: result.asOf)
        }
        Output.write(rendering, options: options, console: context.console)
        return board.report(result, context: context)
    }

    /// The board `arguments` ask for, fetched through `context`'s venues (`agg serve` passes
    /// venues that answer from its snapshot). Validates the symbols, venues and FX options; asks
    /// nothing.
    static func board(
        _ arguments: ParsedArguments, context: CLIContext, options: NetworkOptions, favorites: Set<String>
    ) throws(AggError) -> Board {
        let currency = context.settings(arguments).value(Self.currency)
        var symbols: [String] = []
        for text in arguments.positionals { symbols.append(try AssetCode.validate(text)) }
        let fx = try FXOptions(arguments, registry: context.registry)
        let venues = try PremiumService.venues(
            in: context.registry, currency: currency, named: options.exchanges.explicit ? options.exchanges.ids : [])
        let fxSources = fx.sources(among: context.registry.descriptors(supporting: .fxRates))
        let factory = AdapterFactory(context: context, options: options)
        return Board(
            service: PremiumService(factory: factory, now: context.now),
            request: PremiumService.Request(
                currency: currency, venues: venues, fxSources: fxSources, fxSource: fx.source,
                maximumFXAgeSeconds: fx.maximumAgeSeconds),
            basis: arguments.value(Self.basis), order: arguments.value(Self.sort), symbols: symbols,
            minimumVolume: arguments[Self.minVolume], top: arguments[Self.top], favorites: favorites,
            attributions: Dictionary(fxSources.compactMap { d in d.attribution.map { (d.id, $0) } }) { a, _ in a },
            notAsked: PremiumService.notAsked(
                in: context.registry, currency: currency,
                named: options.exchanges.explicit ? options.exchanges.ids : []))
    }

    /// `--interval`, checked against every venue's rate limit (one request a venue a refresh).
    static func interval(_ arguments: ParsedArguments, venues: [AdapterDescriptor]) throws(AggError) -> Double {
        let floor = venues.map { $0.requestsPerSecond > 0 ? 1 / $0.requestsPerSecond : 1 }.max() ?? 1
        let seconds = arguments.flag(Self.interval) ?? max(defaultInterval, floor)
        guard seconds >= floor else {
            throw .usage("--interval \(RateText.format(seconds)) is too short: at least \(RateText.format(floor)) s")
        }
        return seconds
    }
}

/// One board as the command line asked for it: how to fetch it, and how to show it.
struct Board: Sendable {
    var service: PremiumService
    var request: PremiumService.Request
    var basis: PremiumRendering.Basis
    var order: PremiumBoard.Order
    var symbols: [String]
    var minimumVolume: Decimal?
    var top: Int?
    var favorites: Set<String>
    var attributions: [String: String]
    /// Global venues the board cannot ask (no all-tickers request).
    var notAsked: [String] = []

    func rendering(_ result: PremiumService.Result) -> PremiumRendering {
        PremiumRendering(
            result: result, basis: basis,
            rows: PremiumRendering.select(
                result.board, order: order, basis: basis, symbols: symbols, minimumVolume: minimumVolume, top: top,
                favorites: favorites),
            attributions: attributions,
            globalVenues: request.venues.filter { !$0.quoteCurrencies.contains(request.currency) }.map(\.id),
            notAsked: notAsked, missingSymbols: missingSymbols(result), skipped: skipped(result))
    }

    /// The skipped entries of the venues' answers that concern the symbols asked for (all of
    /// them without symbols).
    func skipped(_ result: PremiumService.Result) -> [SkippedEntry] {
        let coins = Set(symbols)
        return result.skipped.filter { $0.concerns(coins) }
    }

    /// The symbols asked for that the board does not list (none without a board: the FX
    /// failure says why).
    func missingSymbols(_ result: PremiumService.Result) -> [String] {
        guard let board = result.board else { return [] }
        return symbols.filter { symbol in !board.rows.contains { $0.base == symbol } }
    }

    /// Prints what failed (and, under `AGG_DEBUG`, the entries skipped) and returns the exit
    /// code. A skipped entry costs only its own market, so it does not fail the board; when it
    /// is why a symbol asked for is missing from the board, it is an error line before the
    /// symbol's, so that the line saying the symbol is not listed is not the only explanation.
    func report(_ result: PremiumService.Result, context: CLIContext) -> ExitCode {
        let console = context.console
        for error in result.errors { console.printError("agg: \(error.description)") }
        let missing = missingSymbols(result)
        var explaining: [SkippedEntry] = []
        for entry in skipped(result) {
            if let market = entry.market, missing.contains(market.base) {
                explaining.append(entry)
            } else {
                context.debug(entry.description)
            }
        }
        for error in result.transfers.errors {
            console.printError("agg: warning: no transfer status: \(error.description)")
        }
        guard result.board != nil else { return .sourceFailed }
        for entry in explaining { console.printError("agg: \(entry.description)") }
        for symbol in missing { console.printError("agg: " + PremiumRendering.notListedMessage(symbol)) }
        return result.errors.isEmpty && missing.isEmpty ? .success : .sourceFailed
    }
}
