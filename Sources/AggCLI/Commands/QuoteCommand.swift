import AggCore
import AggJSON
import FoundationEssentials

/// `agg quote`: tickers of one or more coins on one or more venues, fetched concurrently.
public enum QuoteCommand: Command {
    public static let spec = CommandSpec(
        name: "quote",
        summary: "Show the current price of coins on one or more venues.",
        usage:
            "quote SYMBOL... [--exchange ID[,ID...]] [--quote CUR] [--all] [--max-stale DURATION]"
            + " [--format table|json|csv]",
        options: [
            CommonOptions.exchange,
            CommonOptions.quote,
            OptionSpec("all", short: "a", help: "List every market of the venue(s) in one request each."),
            OptionSpec(
                "max-stale", value: "DURATION",
                help: "Show a venue that fails by its cached quote up to this old (default 10m; 0 turns it off)."),
        ] + CommonOptions.network,
        positionals: (0, nil),
        examples: [
            "agg quote BTC --exchange bithumb",
            "agg quote BTC ETH XRP --exchange bithumb --format json",
            "agg quote ETH/BTC --exchange bithumb",
            "agg quote --all --exchange bithumb --format csv",
            "agg quote BTC --max-stale 1h",
        ],
        discussion: """
            SYMBOL is a coin (BTC) or a market (BTC/KRW): 1 to 15 letters or digits per code.
            Several coins of one venue are fetched in one request where the venue allows it.
            Favorite coins (agg favorites add BTC) are listed first.
            Every quote fetched is cached in the local database (see AGG_HOME). When a venue
            fails and its cached quote of the market is younger than --max-stale (seconds, or
            30s, 10m, 1h), that quote is shown marked stale with its age; the failure is still
            reported on stderr and the exit code is still 1. --offline runs neither read nor
            write the cache.
            """
    )

    /// One row of output: a quote, or the error that stood in its place.
    public struct Outcome: Sendable {
        public var exchange: String
        public var market: Market
        public var result: QuoteResult
        /// For a failure: the cached quote shown in its place, if one is young enough.
        public var stale: StaleQuote? = nil
    }

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let maxStale = try Self.maxStale(arguments.value("max-stale"), configured: context.configuration.maxStale)
        let all = arguments.has("all")
        if !all && arguments.positionals.isEmpty {
            throw .usage("name at least one SYMBOL, or --all; usage: agg \(spec.usage)")
        }
        if all && !arguments.positionals.isEmpty {
            throw .usage("--all lists every market; give it without symbols")
        }
        let requests = try plan(
            symbols: arguments.positionals, options: options, all: all, registry: context.registry)
        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: requests.map(\.venue))

        let fetched = try await ProgressLine.during(
            "asking \(requests.map(\.venue).joined(separator: ", "))", console: context.console
        ) { () async throws(AggError) in
            try await fetch(requests, all: all, quoteCurrency: options.quoteCurrency, factory: factory)
        }
        // One database for the favorites and the quote cache. Live runs create it to cache
        // their quotes; offline runs only read favorites from one that exists, so that their
        // output stays that of the recordings.
        let store = LocalStore.bestEffort(environment: context.environment, create: !options.offline)
        var answered = fetched
        if !options.offline {
            let changeBases = Dictionary(
                context.registry.descriptors.compactMap { descriptor in
                    descriptor.changeBasis.map { (descriptor.id, $0) }
                }
            ) { first, _ in first }
            let cache = QuoteCache(store: store, now: context.now(), maxAge: maxStale, changeBases: changeBases)
            answered = cache.standIns(for: fetched)
            cache.remember(fetched)
        }
        // Favorite coins first; without a readable database, the usual order.
        let favorites = LocalStore.favorites(kind: .symbol, in: store)
        let outcomes = FavoritesFirst.order(answered, favorites: favorites) { $0.market.base }
        let rendered = QuoteRendering(
            outcomes: outcomes, options: options, width: context.console.width)
        context.console.print(rendered.output())
        for outcome in outcomes {
            if case .failure(let error) = outcome.result {
                context.console.printError(
                    "agg: \(outcome.exchange) \(outcome.market): \(error.summaryNamingNoMarket)")
            }
        }
        return outcomes.contains { if case .failure = $0.result { true } else { false } }
            ? .sourceFailed : .success
    }

    /// `--max-stale` in seconds, else the config file's `maxStale`, else ten minutes.
    static func maxStale(_ text: String?, configured: Int64?) throws(AggError) -> Int64 {
        guard let text else { return configured ?? QuoteCache.defaultMaxAge }
        guard let seconds = DurationText.seconds(from: text) else {
            throw .usage("invalid --max-stale '\(text)': expected seconds (600) or a duration such as 30s, 10m or 1h")
        }
        return seconds
    }

    /// What to ask each venue for.
    struct VenueRequest: Sendable {
        var venue: String
        var markets: [Market]
    }

    /// Validates symbols and venues before any request is made. `agg watch` plans the same way.
    static func plan(
        symbols: [String], options: NetworkOptions, all: Bool, registry: AdapterRegistry
    )
        throws(AggError) -> [VenueRequest]
    {
        let quoteCurrency = options.quoteCurrency
        let needed: Capability = all ? .allTickers : .ticker
        var descriptors: [AdapterDescriptor] = []
        for id in options.exchanges.ids {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(needed) else {
                if !options.exchanges.explicit { continue }
                throw .usage("\(descriptor.id) cannot give \(needed.title); see 'agg exchanges'")
            }
            if !descriptors.contains(where: { $0.id == descriptor.id }) { descriptors.append(descriptor) }
        }
        let explicit = options.exchanges.explicit
        if options.exchanges.ids.isEmpty {
            descriptors = registry.descriptors(supporting: needed)
        }
        var requests: [VenueRequest] = []
        for descriptor in descriptors {
            var markets: [Market] = []
            if all {
                let currency = quoteCurrency ?? descriptor.homeCurrency
                guard descriptor.quoteCurrencies.contains(currency) else {
                    if explicit { throw quoteNotServed(descriptor, currency) }
                    continue
                }
            } else {
                for symbol in symbols {
                    let market = try Market.parse(
                        symbol, defaultQuote: quoteCurrency ?? descriptor.homeCurrency)
                    if descriptor.quoteCurrencies.contains(market.quote) {
                        if !markets.contains(market) { markets.append(market) }
                    } else if explicit {
                        throw quoteNotServed(descriptor, market.quote)
                    }
                }
                if markets.isEmpty { continue }
            }
            requests.append(VenueRequest(venue: descriptor.id, markets: markets))
        }
        if requests.isEmpty {
            let named = symbols.joined(separator: " ")
            throw .usage(
                "no registered venue quotes \(named.isEmpty ? "in \(quoteCurrency ?? "")" : named); see 'agg exchanges'"
            )
        }
        return requests
    }

    private static func quoteNotServed(_ descriptor: AdapterDescriptor, _ currency: String)
        -> AggError
    {
        .usage(
            "\(descriptor.id) does not quote in \(currency) (it quotes in \(descriptor.quoteCurrencies.joined(separator: ", ")))"
        )
    }

    /// Asks every venue at once; within a venue the adapter batches as its API allows.
    static func fetch(
        _ requests: [VenueRequest], all: Bool, quoteCurrency: String?, factory: AdapterFactory
    )
        async throws(AggError) -> [Outcome]
    {
        var adapters: [(VenueRequest, any ExchangeAdapter)] = []
        for request in requests { adapters.append((request, try factory.adapter(id: request.venue))) }
        let results = await concurrentMap(adapters) { request, adapter in
            await fetchOne(request, adapter: adapter, all: all, quoteCurrency: quoteCurrency)
        }
        return results.flatMap { $0 }
    }

    private static func fetchOne(
        _ request: VenueRequest, adapter: any ExchangeAdapter, all: Bool, quoteCurrency: String?
    )
        async -> [Outcome]
    {
        let venue = request.venue
        if all {
            let currency = quoteCurrency ?? adapter.descriptor.homeCurrency
            do throws(AggError) {
                return try await adapter.allQuotes(quotedIn: currency).sorted { $0.market < $1.market }.map {
                    Outcome(exchange: venue, market: $0.market, result: .success($0))
                }
            } catch {
                return [
                    Outcome(
                        exchange: venue, market: Market(base: "ALL", quote: currency), result: .failure(error))
                ]
            }
        }
        let results = await adapter.quotes(for: request.markets)
        return request.markets.map { market in
            Outcome(
                exchange: venue, market: market,
                result: results[market]
                    ?? .failure(.decoding(venue: venue, path: "$", detail: "no answer for \(market)")))
        }
    }
}

/// Quote output in the three formats.
struct QuoteRendering {
    var outcomes: [QuoteCommand.Outcome]
    var options: NetworkOptions
    var width: Int

    func output() -> String {
        switch options.format {
        case .json: json().serialized()
        case .csv: csv()
        case .table: table()
        }
    }

    /// The quotes fetched this time, without stale ones.
    var quotes: [Quote] {
        outcomes.compactMap { if case .success(let quote) = $0.result { quote } else { nil } }
    }

    /// Every quote shown, in order: the fetched ones, and the cached ones standing in for
    /// failures (with their stale mark).
    var shown: [(quote: Quote, stale: StaleQuote?)] {
        outcomes.compactMap { outcome in
            switch outcome.result {
            case .success(let quote): (quote, nil)
            case .failure: outcome.stale.map { ($0.quote, $0) }
            }
        }
    }

    func json() -> JSONValue {
        let errors: [JSONValue] = outcomes.compactMap { outcome in
            guard case .failure(let error) = outcome.result else { return nil }
            return JSONOutput.error(error, exchange: outcome.exchange, symbol: outcome.market.description)
        }
        let quotes: [JSONValue] = shown.map { quote, stale in
            stale.map { JSONOutput.staleQuote(quote, ageSeconds: $0.ageSeconds) } ?? JSONOutput.quote(quote)
        }
        return ["quotes": .array(quotes), "errors": .array(errors)]
    }

    static let csvHeader = [
        "exchange", "symbol", "base", "quote", "last", "open", "high", "low", "previousClose", "change",
        "changePercent", "changeBasis", "baseVolume", "quoteVolume", "timestamp", "stale",
    ]

    func csv() -> String {
        CSVWriter.render(
            header: Self.csvHeader,
            rows: shown.map { quote, stale in
                [
                    quote.exchange, quote.market.description, quote.market.base, quote.market.quote,
                    quote.last.description,
                ]
                    + [
                        quote.open, quote.high, quote.low, quote.previousClose, quote.change,
                        quote.changePercent,
                    ].map { $0?.description ?? "" }
                    + [quote.changeBasis?.rawValue ?? ""]
                    + [quote.baseVolume, quote.quoteVolume].map { $0?.description ?? "" }
                    + [quote.timestamp?.description ?? "", stale == nil ? "false" : "true"]
            })
    }

    /// For `agg watch`: the quotes of the previous refresh by `QuoteRendering.key`. When set, LAST
    /// shows ▲ or ▼ for the move since then, and cells whose text changed are highlighted.
    var previous: [String: Quote]? = nil

    /// The key of a row across refreshes.
    static func key(_ exchange: String, _ market: Market) -> String {
        exchange + " " + market.description
    }

    /// Whether the percent column may be headed 24H: every row shown with a change measures it
    /// over a rolling 24 hours. Otherwise it is headed CHANGE % and a BASIS column says what
    /// each row's change is measured against, so that Upbit's change since 00:00 UTC is never
    /// read as a 24-hour change.
    var changeIsRolling24h: Bool {
        shown.allSatisfy { quote, _ in quote.changePercent == nil || quote.changeBasis == .rolling24h }
    }

    /// The BASIS cell of a quote.
    static func basisText(_ quote: Quote) -> String {
        guard quote.change != nil || quote.changePercent != nil else { return "-" }
        switch quote.changeBasis {
        case .rolling24h: return "rolling 24h"
        case .sinceUTCMidnight: return "since 00:00 UTC"
        case nil: return "-"
        }
    }

    /// The texts of a quote's cells after EXCHANGE and MARKET: last, 24H (or CHANGE % and
    /// BASIS, when `basis`), change, high, low, volume, updated.
    private static func texts(_ quote: Quote, basis: Bool) -> [String] {
        let percent = quote.changePercent
        let arrow = percent.map { $0 > 0 ? "▲ " : ($0 < 0 ? "▼ " : "  ") } ?? ""
        var texts = [
            DecimalFormatting.price(quote.last, currency: quote.market.quote),
            percent.map { arrow + DecimalFormatting.percent($0) } ?? "-",
            quote.change.map { DecimalFormatting.price($0, currency: quote.market.quote) } ?? "-",
            quote.high.map { DecimalFormatting.price($0, currency: quote.market.quote) } ?? "-",
            quote.low.map { DecimalFormatting.price($0, currency: quote.market.quote) } ?? "-",
            quote.baseVolume.map { DecimalFormatting.fixed($0, places: 2) } ?? "-",
            quote.timestamp.map(TableTime.text) ?? "-",
        ]
        if basis { texts.insert(basisText(quote), at: 2) }
        return texts
    }

    func table() -> String {
        let style = options.style
        // UPDATED goes first on a narrow terminal, unless it carries a stale mark.
        let anyStale = outcomes.contains { $0.stale != nil }
        let basis = !changeIsRolling24h
        var columns: [TextTable.Column] = [
            .init("EXCHANGE"), .init("MARKET"), .init("LAST", .right),
            .init(basis ? "CHANGE %" : "24H", .right, priority: 6),
        ]
        if basis { columns.append(.init("BASIS", priority: 6)) }
        columns += [
            .init("CHANGE", .right, priority: 2), .init("HIGH", .right, priority: 4),
            .init("LOW", .right, priority: 3),
            .init("VOLUME", .right, priority: 5), .init("UPDATED (UTC)", priority: anyStale ? 0 : 1),
        ]
        var table = TextTable(columns: columns)
        /// `paints` with no paint for the BASIS cell, when there is one.
        func withBasis(_ paints: [(@Sendable (String) -> String)?]) -> [(@Sendable (String) -> String)?] {
            var paints = paints
            if basis { paints.insert(nil, at: 2) }
            return paints
        }
        for outcome in outcomes {
            if case .failure = outcome.result, let stale = outcome.stale {
                let quote = stale.quote
                var texts = Self.texts(quote, basis: basis)
                texts[texts.count - 1] = "stale, " + DurationText.ago(seconds: stale.ageSeconds)
                let percent = quote.changePercent
                let paints = withBasis([
                    nil, { [style] in style.signed($0, percent) }, nil, nil, nil, nil,
                    { [style] in style.warning($0) },
                ])
                table.append(
                    [.init(outcome.exchange), .init(outcome.market.description)]
                        + zip(texts, paints).map { TextTable.Cell($0.0, paint: $0.1) })
                continue
            }
            switch outcome.result {
            case .success(let quote):
                let percent = quote.changePercent
                var texts = Self.texts(quote, basis: basis)
                var paints = withBasis([
                    nil, { [style] in style.signed($0, percent) }, nil, nil, nil, nil, nil,
                ])
                if let previous {
                    let old = previous[Self.key(outcome.exchange, outcome.market)]
                    let oldTexts = old.map { Self.texts($0, basis: basis) }
                    for index in texts.indices where oldTexts.map({ $0[index] != texts[index] }) ?? false {
                        let inner = paints[index]
                        paints[index] = { [style] in style.highlight(inner?($0) ?? $0) }
                    }
                    let move = old.map { quote.last - $0.last } ?? 0
                    let lastPaint = paints[0]
                    texts[0] = (move > 0 ? "▲ " : move < 0 ? "▼ " : "  ") + texts[0]
                    paints[0] = { [style] in style.signed(lastPaint?($0) ?? $0, move) }
                }
                table.append(
                    [.init(quote.exchange), .init(quote.market.description)]
                        + zip(texts, paints).map { TextTable.Cell($0.0, paint: $0.1) })
            case .failure(let error):
                table.append([
                    .init(outcome.exchange), .init(outcome.market.description),
                    .init("failed", paint: { [style] in style.warning($0) }),
                    .init(error.kind == "notListed" ? "not listed" : error.kind),
                ])
            }
        }
        return table.render(width: width, style: style)
    }
}

/// Times in tables: UTC, to the second, without the `T` and `Z` noise.
enum TableTime {
    static func text(_ timestamp: Timestamp) -> String {
        let iso = timestamp.iso8601Seconds
        return iso.replacing("T", with: " ").replacing("Z", with: "")
    }
}
