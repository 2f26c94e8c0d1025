import AggCore
import AggJSON
import AggOptions
import AggServer
import AggServices
import FoundationEssentials

/// The JSON endpoints of `agg serve`: each turns its query into the command line of the
/// matching command, parses it with that command's spec (so that symbols, currencies and venue
/// ids are validated exactly as on the command line), and runs the command's own service and
/// renderer over venues that answer from the snapshot. The body is what the command prints with
/// `--format json` for the same data.
package struct ServeEndpoints: Sendable {
    /// The venues as the command line knows them, for `/v1/exchanges`.
    var context: CLIContext
    /// The venues `agg serve` polls.
    var polled: Set<String>
    var history: (any HistoryStore)?

    /// How one endpoint's query names map onto its command line.
    package struct QueryMap: Sendable {
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

    /// The adapters of a run whose venues (the polled ones) answer from `snapshot`, at the snapshot's time, with
    /// the options `parsed` gives (JSON): the snapshot is the adapters' source, nothing else
    /// differs from the command line.
    private func factory(_ parsed: ParsedArguments, snapshot: ServeSnapshot) throws(AggError) -> AdapterFactory {
        var environment = context.environment
        environment["AGG_OFFLINE"] = nil
        let time = snapshot.time
        var answering = CLIContext(
            registry: context.registry.only(polled).answering(from: snapshot), environment: environment,
            console: Console(standardOutput: BufferSink(), standardError: BufferSink(), width: 200),
            makeHTTPClient: { _ in NoNetworkHTTPClient() }, now: { time })
        answering.configuration = context.configuration
        return try AdapterFactory(parsed, context: answering)
    }

    private func parse(_ arguments: [HTTPServerRequest.Argument], _ map: QueryMap, _ spec: CommandSpec)
        throws(AggError) -> ParsedArguments
    {
        try ArgumentParser.parse(try Self.commandLine(arguments, map: map), spec: spec)
    }

    /// `agg quote SYMBOL... [-e ...] [--quote CUR] -f json`: `QuoteRequest` and `QuoteService`,
    /// without the quote cache; a venue whose last poll failed answers with its last good quote,
    /// marked stale.
    func quote(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError)
        -> String
    {
        let parsed = try parse(arguments, Self.quoteQuery, QuoteCommand.spec)
        guard !parsed.positionals.isEmpty else { throw .usage("name at least one symbol: /v1/quote?symbol=BTC") }
        let factory = try factory(parsed, snapshot: snapshot)
        let request = try QuoteRequest(parsed, options: factory.options, context: factory.context)
        var service = QuoteService(
            factory: factory, registry: factory.context.registry, caches: false, now: factory.context.now)
        service.lastGood = { snapshot.lastGood($0) }
        return QuoteRendering(
            outcomes: try await service.run(request).outcomes,
            aging: QuoteAging(now: snapshot.time, staleAfter: request.staleAfter)
        ).jsonLine()
    }

    /// `agg compare SYMBOL... [--in CUR] [-e ...] [--usdt HOW] -f json`: `CompareRequest` and
    /// `CompareService`, without the database (no stored rates, no percentiles).
    func compare(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError)
        -> String
    {
        let parsed = try parse(arguments, Self.compareQuery, CompareCommand.spec)
        guard !parsed.positionals.isEmpty else { throw .usage("name at least one symbol: /v1/compare?symbol=BTC") }
        let factory = try factory(parsed, snapshot: snapshot)
        let request = try CompareRequest(parsed, options: factory.options, context: factory.context)
        return await CompareService.run(request, factory: factory, database: nil, now: factory.context.now).jsonLine()
    }

    /// The premium endpoint's body and the board itself (for metrics). A struct, not a tuple:
    /// it is the result of async closures (see the release-miscompile rule).
    package struct PremiumAnswer: Sendable {
        var text: String
        var board: PremiumBoard?
        /// The whole result, for `--alert` rules.
        var result: PremiumService.Result?

        package init(text: String, board: PremiumBoard? = nil, result: PremiumService.Result? = nil) {
            self.text = text
            self.board = board
            self.result = result
        }
    }

    /// `agg premium [SYMBOL...] [options] -f json`: `PremiumRequest` and `PremiumService`,
    /// without favorites or percentiles; and the board itself (for metrics).
    func premium(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError)
        -> PremiumAnswer
    {
        let parsed = try parse(arguments, Self.premiumQuery, PremiumCommand.spec)
        let factory = try factory(parsed, snapshot: snapshot)
        let request = try PremiumRequest(parsed, options: factory.options, context: factory.context, favorites: [])
        let answer = await PremiumService(factory: factory, now: factory.context.now).run(request, history: nil)
        return PremiumAnswer(text: answer.rendering.jsonLine(), board: answer.result.board, result: answer.result)
    }

    /// `agg rates [BASE] [--to ...] [--source ID|all] -f json`: `RatesRequest` and `RatesService`,
    /// the previous table being the source's table in the previous snapshot, if any.
    func rates(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot, previous: ServeSnapshot?)
        async throws(AggError) -> String
    {
        let parsed = try parse(arguments, Self.ratesQuery, RatesCommand.spec)
        guard parsed.positionals.count <= 1 else { throw .usage("name one base currency: /v1/rates?base=USD") }
        let factory = try factory(parsed, snapshot: snapshot)
        let request = try RatesRequest(parsed, registry: factory.context.registry)
        let service = RatesService(factory: factory, registry: factory.context.registry, now: factory.context.now)
        let kept = (previous?.fx ?? [:]).compactMapValues { try? $0.get() }
        return try await service.run(request, archive: KeptRates(tables: kept)).jsonLine()
    }

    /// `agg status SYMBOL... [-e ...] -f json`: `StatusRequest` and `TransferStatusService`.
    func status(_ arguments: [HTTPServerRequest.Argument], snapshot: ServeSnapshot) async throws(AggError)
        -> String
    {
        let parsed = try parse(arguments, Self.statusQuery, StatusCommand.spec)
        guard !parsed.positionals.isEmpty else { throw .usage("name at least one symbol: /v1/status?symbol=ETH") }
        let factory = try factory(parsed, snapshot: snapshot)
        let request = try StatusRequest(parsed, options: factory.options, registry: factory.context.registry)
        return TransferStatusRendering(
            report: await TransferStatusService.withFees(factory: factory).run(request)
        ).jsonLine()
    }

    /// `agg favorites list -f json`: `FavoritesRequest` and `FavoritesService` on the local
    /// database (`AGG_HOME`'s), read as it is at each request, so a favorite added with the CLI
    /// shows at the page's next load; both lists empty when there is no database (serve never
    /// creates one for this).
    func favorites() -> Result<String, AggError> {
        Result<String, AggError>(catching: { () throws(AggError) -> String in
            let request = try FavoritesRequest(try ArgumentParser.parse(["list"], spec: FavoritesCommand.spec))
            guard let store = LocalStore.bestEffort(environment: context.environment, create: false) else {
                return FavoritesReport.none.jsonLine()
            }
            return try FavoritesService(openStore: { store }).run(request).jsonLine()
        })
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

extension ServeSnapshot {
    /// The last good quote of `outcome`'s market when its venue's last poll failed: what
    /// `/v1/quote` shows, marked stale, in the failure's place (the snapshot's stand-in for the
    /// command line's quote cache).
    func lastGood(_ outcome: QuoteService.Outcome) -> StaleQuote? {
        guard let venue = venues[outcome.exchange], !venue.isFresh, let fetched = venue.fetched,
            let quote = venue.byMarket[outcome.market]
        else { return nil }
        return StaleQuote(
            quote: quote, fetchedAt: fetched,
            ageSeconds: max(0, (time.millisecondsSince1970 - fetched.millisecondsSince1970) / 1000))
    }
}
