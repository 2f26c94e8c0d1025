import AggCore
import AggJSON
import AggServer
import FoundationEssentials

/// The JSON endpoints of `agg serve`: each turns its query into the command line of the
/// matching command, parses it with that command's spec (so that symbols, currencies and venue
/// ids are validated exactly as on the command line), and runs the command's own service and
/// renderer over venues that answer from the snapshot. The body is what the command prints with
/// `--format json` for the same data.
struct ServeEndpoints: Sendable {
    /// The venues as the command line knows them, for `/v1/exchanges`.
    var context: CLIContext
    /// The venues `agg serve` polls.
    var polled: Set<String>
    var history: (any HistoryStore)?

    /// How one endpoint's query names map onto its command line.
    struct QueryMap: Sendable {
        /// The query name whose comma-separated values are the positionals.
        var positional: String?
        /// Query name → option name (without `--`).
        var options: [String: String]
        var names: [String] { ([positional].compactMap { $0 } + options.keys).sorted() }
    }

    static let quoteQuery = QueryMap(positional: "symbol", options: ["exchange": "exchange", "quote": "quote"])
    static let compareQuery = QueryMap(
        positional: "symbol",
        options: ["in": "in", "exchange": "exchange", "usdt": "usdt", "fx": "fx", "max-fx-age": "max-fx-age"])
    static let premiumQuery = QueryMap(
        positional: "symbol",
        options: [
            "exchange": "exchange", "in": "in", "fx": "fx", "basis": "basis", "sort": "sort", "top": "top",
            "min-volume": "min-volume", "max-fx-age": "max-fx-age",
        ])
    static let ratesQuery = QueryMap(
        positional: "base", options: ["to": "to", "source": "source", "threshold": "threshold"])
    static let statusQuery = QueryMap(positional: "symbol", options: ["exchange": "exchange"])
    static let historyQuery = QueryMap(positional: nil, options: ["symbol": "", "since": "", "exchange": ""])

    /// Symbols (or other positionals) one request may name: the work of an answer grows with
    /// them, and a client should not make one answer cost what a thousand do.
    static let maximumSymbols = 200

    /// The command line for `arguments`, or a usage error naming the bad query argument.
    static func commandLine(_ arguments: [HTTPServerRequest.Argument], map: QueryMap) throws(AggError) -> [String] {
        var seen: Set<String> = []
        var positionals: [String] = []
        var options: [String] = []
        for argument in arguments {
            guard map.names.contains(argument.name) else {
                throw .usage(
                    "unknown query parameter '\(Self.printable(argument.name))'; this endpoint takes "
                        + map.names.joined(separator: ", "))
            }
            guard seen.insert(argument.name).inserted else {
                throw .usage("query parameter '\(argument.name)' is given twice; separate values with commas")
            }
            guard let value = argument.value, !value.isEmpty else {
                throw .usage("query parameter '\(argument.name)' needs a value")
            }
            // A value that starts with '-' would read as an option on the command line.
            guard !value.hasPrefix("-") else {
                throw .usage("invalid \(argument.name) '\(Self.printable(value))'")
            }
            if argument.name == map.positional {
                positionals += value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            } else if let option = map.options[argument.name] {
                options += ["--" + option, value]
            }
        }
        guard positionals.count <= maximumSymbols else {
            throw .usage("at most \(maximumSymbols) symbols a request; this one names \(positionals.count)")
        }
        for positional in positionals where positional.isEmpty || positional.hasPrefix("-") {
            throw .usage("invalid \(map.positional ?? "value") '\(Self.printable(positional))'")
        }
        return options + ["--format", "json", "--"] + positionals
    }

    /// `text` with control characters shown as `?` and cut to 64 characters, for messages.
    static func printable(_ text: String) -> String {
        String(String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }).prefix(64))
    }

    /// A context whose venues (the polled ones) answer from `snapshot`, at the snapshot's time.
    func context(for snapshot: ServeSnapshot) -> CLIContext {
        var environment = context.environment
        environment["AGG_OFFLINE"] = nil
        let time = snapshot.time
        var answering = CLIContext(
            registry: context.registry.only(polled).answering(from: snapshot), environment: environment,
            console: Console(standardOutput: BufferSink(), standardError: BufferSink(), width: 200),
            makeHTTPClient: { _ in NoNetworkHTTPClient() }, now: { time })
        answering.configuration = context.configuration
        return answering
    }

    private func parse(_ arguments: [HTTPServerRequest.Argument], _ map: QueryMap, _ spec: CommandSpec)
        throws(AggError) -> ParsedArguments
    {
        try ArgumentParser.parse(try Self.commandLine(arguments, map: map), spec: spec)
    }

    /// `agg quote SYMBOL... [-e ...] [--quote CUR] -f json`.
    func quote(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError) -> String {
        let parsed = try parse(arguments, Self.quoteQuery, QuoteCommand.spec)
        guard !parsed.positionals.isEmpty else { throw .usage("name at least one symbol: /v1/quote?symbol=BTC") }
        let context = context(for: snapshot)
        let options = try NetworkOptions(parsed, context: context)
        let plan = try QuoteService.plan(
            symbols: parsed.positionals, exchanges: options.exchanges, quoteCurrency: options.quoteCurrency,
            all: false, registry: context.registry)
        let service = QuoteService(
            factory: AdapterFactory(context: context, options: options), registry: context.registry,
            caches: false, now: context.now)
        var outcomes = try await service.quotes(plan, maxStale: 0).outcomes
        // A venue whose last request failed answers with its last good quote, marked stale.
        for index in outcomes.indices {
            guard case .failure = outcomes[index].result, let venue = snapshot.venues[outcomes[index].exchange],
                !venue.isFresh, let fetched = venue.fetched, let quote = venue.byMarket[outcomes[index].market]
            else { continue }
            outcomes[index].stale = StaleQuote(
                quote: quote, fetchedAt: fetched,
                ageSeconds: max(0, (snapshot.time.millisecondsSince1970 - fetched.millisecondsSince1970) / 1000))
        }
        return QuoteRendering(outcomes: outcomes).jsonLine()
    }

    /// `agg compare SYMBOL... [--in CUR] [-e ...] [--usdt HOW] -f json`.
    func compare(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError) -> String {
        let parsed = try parse(arguments, Self.compareQuery, CompareCommand.spec)
        let context = context(for: snapshot)
        let options = try NetworkOptions(parsed, context: context)
        var plans: [ComparePlan] = []
        var coins: [String] = []
        for symbol in parsed.positionals {
            guard !symbol.contains("/") else {
                throw .usage("compare takes a coin such as BTC, not a market ('\(symbol)')")
            }
            let coin = try AssetCode.validate(symbol)
            if !coins.contains(coin) { coins.append(coin) }
        }
        guard !coins.isEmpty else { throw .usage("name at least one symbol: /v1/compare?symbol=BTC") }
        let fx = try FXOptions(parsed, registry: context.registry)
        for coin in coins {
            plans.append(
                try ComparePlan(
                    coin: coin, currency: context.settings(parsed).value(CompareCommand.currency),
                    stablecoins: parsed.value(CompareCommand.usdt), fx: fx,
                    named: options.exchanges.explicit ? options.exchanges.ids : [], registry: context.registry))
        }
        let service = CompareService(
            factory: AdapterFactory(context: context, options: options), store: nil, now: context.now)
        let reports = await service.compare(plans, refresh: false)
        if let report = reports.first, reports.count == 1 { return CompareRendering(report: report).jsonLine() }
        return CompareRenderings(renderings: reports.map(CompareRendering.init(report:))).jsonLine()
    }

    /// The premium endpoint's body and the board itself (for metrics). A struct, not a tuple:
    /// it is the result of async closures (see the release-miscompile rule).
    struct PremiumAnswer: Sendable {
        var text: String
        var board: PremiumBoard?
    }

    /// `agg premium [SYMBOL...] [options] -f json`, and the board itself (for metrics).
    func premium(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError)
        -> PremiumAnswer
    {
        let parsed = try parse(arguments, Self.premiumQuery, PremiumCommand.spec)
        let context = context(for: snapshot)
        let board = try PremiumCommand.board(
            parsed, context: context, options: try NetworkOptions(parsed, context: context), favorites: [])
        let result = await board.service.run(board.request)
        return PremiumAnswer(text: board.rendering(result).jsonLine(), board: result.board)
    }

    /// `agg rates [BASE] [--to ...] [--source ID|all] -f json`. With one source, the previous
    /// rates are those of the source's previous table in memory, if any.
    func rates(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot, previous: ServeSnapshot?)
        async throws(AggError) -> String
    {
        let parsed = try parse(arguments, Self.ratesQuery, RatesCommand.spec)
        guard parsed.positionals.count <= 1 else { throw .usage("name one base currency: /v1/rates?base=USD") }
        let context = context(for: snapshot)
        let options = try NetworkOptions(parsed, context: context)
        let base = try AssetCode.validateCurrency(parsed.positionals.first ?? "USD")
        let factory = AdapterFactory(context: context, options: options)
        if parsed.flag(RatesCommand.source) == "all" {
            let targets = parsed.flag(RatesCommand.to) ?? [RatesCommand.comparedCurrency]
            guard targets.count == 1, let quote = targets.first else {
                throw .usage("source=all compares one rate: name one currency with to, such as to=KRW")
            }
            let result = await RateSourcesService(factory: factory, registry: context.registry, now: context.now)
                .run(base: base, quote: quote)
            let attributions = Dictionary(
                context.registry.descriptors(supporting: .fxRates).compactMap { d in
                    d.attribution.map { (d.id, $0) }
                }
            ) { first, _ in first }
            return RateSourcesRendering(result: result, attributions: attributions).jsonLine()
        }
        let source = try RatesCommand.source(parsed.flag(RatesCommand.source), registry: context.registry)
        let table = try await factory.adapter(id: source.id).rates(base: base)
        let earlier: RateTable? =
            if case .success(let old)? = previous?.fx[source.id],
                old.asOf.millisecondsSince1970
                    < table.asOf.millisecondsSince1970
            { old } else { nil }
        let comparison = RateComparison(threshold: parsed.value(RatesCommand.threshold))
        var changes = comparison.compare(table, with: earlier)
        if let targets = parsed.flag(RatesCommand.to) {
            let wanted = Set(targets)
            changes = changes.filter { wanted.contains($0.code) }
        }
        changes = FavoritesFirst.order(changes, favorites: []) { $0.code }
        let report = RatesReport(
            source: source, table: table, previousAsOf: earlier?.asOf, changes: changes,
            threshold: comparison.threshold)
        return RatesRendering(report: report).jsonLine()
    }

    /// `agg status SYMBOL... [-e ...] -f json`.
    func status(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError) -> String {
        let parsed = try parse(arguments, Self.statusQuery, StatusCommand.spec)
        var coins: [String] = []
        for text in parsed.positionals {
            let coin = try AssetCode.validate(text)
            if !coins.contains(coin) { coins.append(coin) }
        }
        guard !coins.isEmpty else { throw .usage("name at least one symbol: /v1/status?symbol=ETH") }
        let context = context(for: snapshot)
        let options = try NetworkOptions(parsed, context: context)
        let venues = try TransferStatusService.venues(
            in: context.registry, named: options.exchanges.explicit ? options.exchanges.ids : [])
        let report = await TransferStatusService(
            factory: AdapterFactory(context: context, options: options), now: context.now
        ).run(coins: coins, venues: venues)
        return TransferStatusRendering(report: report).jsonLine()
    }

    /// `agg exchanges -f json`: every registered venue, polled or not.
    func exchanges() -> String {
        let context = self.context
        return ExchangesRendering(
            descriptors: context.registry.descriptors,
            baseURL: { descriptor in context.configuration.baseURL(for: descriptor, environment: context.environment) },
            origin: { descriptor in context.registry.registration(id: descriptor.id)?.origin ?? .builtIn }
        ).jsonLine()
    }
}
