import AggCore
import AggJSON
import Foundation

/// `agg quote`: tickers of one or more coins on one or more venues, fetched concurrently.
public enum QuoteCommand: Command {
    public static let spec = CommandSpec(
        name: "quote",
        summary: "Show the current price of coins on one or more venues.",
        usage:
            "quote SYMBOL... [--exchange ID[,ID...]] [--quote CUR] [--all] [--format table|json|csv]",
        options: [
            CommonOptions.exchange,
            OptionSpec(
                "quote", short: "q", value: "CUR",
                help: "Quote currency for bare symbols (default: each venue's home currency)."),
            OptionSpec("all", short: "a", help: "List every market of the venue(s) in one request each."),
        ] + CommonOptions.network,
        positionals: (0, nil),
        examples: [
            "agg quote BTC --exchange bithumb",
            "agg quote BTC ETH XRP --exchange bithumb --format json",
            "agg quote ETH/BTC --exchange bithumb",
            "agg quote --all --exchange bithumb --format csv",
        ],
        discussion: """
            SYMBOL is a coin (BTC) or a market (BTC/KRW): 1 to 15 letters or digits per code.
            Several coins of one venue are fetched in one request where the venue allows it.
            Favorite coins (agg favorites add BTC) are listed first.
            """
    )

    /// One row of output: a quote, or the error that stood in its place.
    public struct Outcome: Sendable {
        public var exchange: String
        public var market: Market
        public var result: QuoteResult
    }

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let all = arguments.has("all")
        if !all && arguments.positionals.isEmpty {
            throw .usage("name at least one SYMBOL, or --all; usage: agg \(spec.usage)")
        }
        if all && !arguments.positionals.isEmpty {
            throw .usage("--all lists every market; give it without symbols")
        }
        let quoteCurrency = try arguments.value("quote").map { text throws(AggError) in
            try AssetCode.validate(text)
        }
        let requests = try plan(
            arguments: arguments, quoteCurrency: quoteCurrency, all: all, registry: context.registry)
        let factory = AdapterFactory(context: context, options: options)
        factory.announceOffline(venues: requests.map(\.venue))

        // Favorite coins first; without a readable database, the usual order.
        let favorites = LocalStore.existingFavorites(kind: .symbol, environment: context.environment)
        let outcomes = FavoritesFirst.order(
            try await fetch(requests, all: all, quoteCurrency: quoteCurrency, factory: factory),
            favorites: favorites
        ) { $0.market.base }
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

    /// What to ask each venue for.
    struct VenueRequest: Sendable {
        var venue: String
        var markets: [Market]
    }

    /// Validates symbols and venues before any request is made.
    static func plan(
        arguments: ParsedArguments, quoteCurrency: String?, all: Bool, registry: AdapterRegistry
    )
        throws(AggError) -> [VenueRequest]
    {
        let named = arguments.list("exchange").map { $0.lowercased() }
        var descriptors: [AdapterDescriptor] = []
        for id in named {
            let descriptor = try registry.requireDescriptor(id: id)
            let needed: Capability = all ? .allTickers : .ticker
            guard descriptor.supports(needed) else {
                throw .usage("\(descriptor.id) cannot give \(needed.title); see 'agg exchanges'")
            }
            if !descriptors.contains(where: { $0.id == descriptor.id }) { descriptors.append(descriptor) }
        }
        let explicit = !descriptors.isEmpty
        if !explicit {
            descriptors = registry.descriptors(supporting: all ? .allTickers : .ticker)
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
                for symbol in arguments.positionals {
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
            let symbols = arguments.positionals.joined(separator: " ")
            throw .usage(
                "no registered venue quotes \(symbols.isEmpty ? "in \(quoteCurrency ?? "")" : symbols); see 'agg exchanges'"
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
        let results = await withTaskGroup(of: (Int, [Outcome]).self) { group in
            for (index, (request, adapter)) in adapters.enumerated() {
                group.addTask {
                    (index, await fetchOne(request, adapter: adapter, all: all, quoteCurrency: quoteCurrency))
                }
            }
            var collected: [(Int, [Outcome])] = []
            for await partial in group { collected.append(partial) }
            return collected.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
        return results
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

    var quotes: [Quote] {
        outcomes.compactMap { if case .success(let quote) = $0.result { quote } else { nil } }
    }

    func json() -> JSONValue {
        let errors: [JSONValue] = outcomes.compactMap { outcome in
            guard case .failure(let error) = outcome.result else { return nil }
            return JSONOutput.error(error, exchange: outcome.exchange, symbol: outcome.market.description)
        }
        return ["quotes": .array(quotes.map(JSONOutput.quote)), "errors": .array(errors)]
    }

    static let csvHeader = [
        "exchange", "symbol", "base", "quote", "last", "open", "high", "low", "previousClose", "change",
        "changePercent", "baseVolume", "quoteVolume", "timestamp",
    ]

    func csv() -> String {
        CSVWriter.render(
            header: Self.csvHeader,
            rows: quotes.map { quote in
                [
                    quote.exchange, quote.market.description, quote.market.base, quote.market.quote,
                    quote.last.description,
                ]
                    + [
                        quote.open, quote.high, quote.low, quote.previousClose, quote.change,
                        quote.changePercent,
                        quote.baseVolume, quote.quoteVolume,
                    ].map { $0?.description ?? "" }
                    + [quote.timestamp?.description ?? ""]
            })
    }

    func table() -> String {
        let style = options.style
        var table = TextTable(columns: [
            .init("EXCHANGE"), .init("MARKET"), .init("LAST", .right), .init("24H", .right, priority: 6),
            .init("CHANGE", .right, priority: 2), .init("HIGH", .right, priority: 4),
            .init("LOW", .right, priority: 3),
            .init("VOLUME", .right, priority: 5), .init("UPDATED (UTC)", priority: 1),
        ])
        for outcome in outcomes {
            switch outcome.result {
            case .success(let quote):
                let percent = quote.changePercent
                let arrow = percent.map { $0 > 0 ? "▲ " : ($0 < 0 ? "▼ " : "  ") } ?? ""
                let percentText = percent.map { arrow + DecimalFormatting.percent($0) } ?? "-"
                table.append([
                    .init(quote.exchange), .init(quote.market.description),
                    .init(DecimalFormatting.grouped(quote.last)),
                    .init(percentText, paint: { [style] in style.signed($0, percent) }),
                    .init(quote.change.map(DecimalFormatting.grouped) ?? "-"),
                    .init(quote.high.map(DecimalFormatting.grouped) ?? "-"),
                    .init(quote.low.map(DecimalFormatting.grouped) ?? "-"),
                    .init(quote.baseVolume.map { DecimalFormatting.fixed($0, places: 2) } ?? "-"),
                    .init(quote.timestamp.map(TableTime.text) ?? "-"),
                ])
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
        return iso.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
    }
}
