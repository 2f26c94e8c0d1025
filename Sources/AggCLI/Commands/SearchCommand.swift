import AggCore
import AggJSON
import FoundationEssentials

/// `agg search`: markets whose symbol or published name matches what was typed, across venues.
public enum SearchCommand: Command {
    public static let spec = CommandSpec(
        name: "search",
        summary: "Find markets by symbol or by Korean or English name, with the last price.",
        usage: "search QUERY [--exchange ID[,ID...]] [--quote CUR] [--limit N]",
        options: [
            CommonOptions.exchange,
            OptionSpec("quote", short: "q", value: "CUR", help: "Only markets quoted in this currency."),
            OptionSpec(
                "limit", short: "n", value: "N",
                help: "Show at most N results (default \(defaultLimit), at most \(maximumLimit))."),
        ] + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg search ET",
            "agg search 비트코인",
            "agg search bitcoin --quote KRW --format json",
        ],
        discussion: """
            Symbols match first by prefix, then anywhere (ET finds ETH and ETC before VET); names
            match where a venue publishes them (Upbit gives Korean and English names). The last
            price is shown when the venue gives every ticker in one request. Several words are
            one query: agg search bitcoin cash. A venue whose list takes several requests shows
            what answered; each failed request is one line on stderr (and an entry in JSON
            errors) and the exit code is 1. --quote asks only for that currency's list.
            """
    )

    static let defaultLimit = 30
    static let maximumLimit = 1000

    /// What one venue contributed.
    struct VenueResult: Sendable {
        var venue: String
        var matches: [MarketSearch.Match] = []
        var prices: [Market: Decimal] = [:]
        /// The requests that failed; the matches are those of the requests that answered.
        var failures: [MarketList.Failure] = []
    }

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        let query = try MarketSearch.validate(arguments.positionals.joined(separator: " "))
        let quoteFilter = try arguments.value("quote").map { text throws(AggError) in try AssetCode.validate(text) }
        var limit = defaultLimit
        if let text = arguments.value("limit") {
            guard let value = Int(text), (1...maximumLimit).contains(value) else {
                throw .usage("invalid --limit '\(text)': expected a whole number from 1 to \(maximumLimit)")
            }
            limit = value
        }
        let venues = try venues(options: options, registry: context.registry)
        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: venues.map(\.id))
        var adapters: [any ExchangeAdapter] = []
        for venue in venues { adapters.append(try factory.adapter(id: venue.id)) }
        let homes = Dictionary(venues.map { ($0.id, $0.homeCurrency) }) { first, _ in first }

        let results = try await ProgressLine.during(
            "searching \(venues.map(\.id).joined(separator: ", "))", console: context.console
        ) { () async in
            await concurrentMap(adapters) { adapter in
                await search(adapter, query: query, quote: quoteFilter, homes: homes)
            }.sorted { $0.venue < $1.venue }
        }
        let matches = Array(
            MarketSearch.rank(results.flatMap { $0.matches.map(\.listing) }, query: query, homeCurrencies: homes)
                .prefix(limit))
        let prices = results.reduce(into: [String: Decimal]()) { all, result in
            for (market, price) in result.prices { all[QuoteRendering.key(result.venue, market)] = price }
        }
        let rows = matches.map { ($0.listing, prices[QuoteRendering.key($0.listing.exchange, $0.listing.market)]) }
        let failures = results.flatMap { result in
            result.failures.map { VenueFailure(venue: result.venue, failure: $0) }
        }
        switch options.format {
        case .json: context.console.print(json(query: query, rows: rows, failures: failures).serialized())
        case .csv: context.console.print(csv(rows))
        case .table:
            if rows.isEmpty {
                context.console.printError("agg: no market matches '\(query)'")
            } else {
                context.console.print(table(rows, style: options.style, width: context.console.width))
            }
        }
        for failure in failures { context.console.printError("agg: \(failure.line)") }
        return failures.isEmpty ? .success : .sourceFailed
    }

    /// A failed request of one venue's list, as `quote` reports a failed `--all`: its part of
    /// the list is the market `ALL/<currency>`.
    struct VenueFailure: Sendable {
        var venue: String
        var failure: MarketList.Failure

        var symbol: String? { failure.quoteCurrency.map { "ALL/\($0)" } }

        /// "bithumb ALL/BTC: error 5500: ...", or the error's own line for a whole list.
        var line: String {
            guard let symbol else { return failure.error.description }
            return "\(venue) \(symbol): \(failure.error.summaryNamingNoMarket)"
        }

        var json: JSONValue { JSONOutput.error(failure.error, exchange: venue, symbol: symbol) }
    }

    /// The venues to search: those named (each must list its markets), else the config file's
    /// that can, else every venue that can.
    static func venues(options: NetworkOptions, registry: AdapterRegistry) throws(AggError) -> [AdapterDescriptor] {
        var chosen: [AdapterDescriptor] = []
        for id in options.exchanges.ids {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.markets) else {
                if options.exchanges.explicit {
                    throw .usage("\(descriptor.id) does not provide a \(Capability.markets.title); see 'agg exchanges'")
                }
                continue
            }
            if !chosen.contains(where: { $0.id == descriptor.id }) { chosen.append(descriptor) }
        }
        if options.exchanges.ids.isEmpty { chosen = registry.descriptors(supporting: .markets) }
        guard !chosen.isEmpty else { throw .usage("no registered venue provides a market list; see 'agg exchanges'") }
        return chosen
    }

    /// One venue's matches, and their last prices when the venue gives all tickers at once.
    static func search(
        _ adapter: any ExchangeAdapter, query: String, quote: String?, homes: [String: String]
    ) async -> VenueResult {
        let descriptor = adapter.descriptor
        var result = VenueResult(venue: descriptor.id)
        let list = await adapter.marketList(quotedIn: quote)
        result.failures = list.failures
        let listings = list.listings.filter { quote == nil || $0.market.quote == quote }
        result.matches = MarketSearch.rank(listings, query: query, homeCurrencies: homes)
        for match in result.matches {
            if let last = match.listing.last { result.prices[match.listing.market] = last }
        }
        guard descriptor.supports(.allTickers) else { return result }
        // Only the quote currencies whose matches came without a price need the tickers.
        let currencies = descriptor.quoteCurrencies.filter { currency in
            result.matches.contains { $0.listing.market.quote == currency && $0.listing.last == nil }
        }
        for currency in currencies {
            do throws(AggError) {
                for quote in try await adapter.allQuotes(quotedIn: currency) {
                    result.prices[quote.market] = quote.last
                }
            } catch {
                result.failures.append(MarketList.Failure(quoteCurrency: currency, error: error))
            }
        }
        return result
    }

    /// `{"query","results":[...],"errors":[...]}`; each error is shaped as in `quote`.
    static func json(query: String, rows: [(MarketListing, Decimal?)], failures: [VenueFailure]) -> JSONValue {
        [
            "query": .string(query),
            "results": .array(
                rows.map { listing, last in
                    [
                        "exchange": .string(listing.exchange),
                        "symbol": .string(listing.market.description),
                        "base": .string(listing.market.base),
                        "quote": .string(listing.market.quote),
                        "nameKo": JSONOutput.string(listing.koreanName),
                        "nameEn": JSONOutput.string(listing.englishName),
                        "last": JSONOutput.decimal(last),
                    ]
                }),
            "errors": .array(failures.map(\.json)),
        ]
    }

    static func csv(_ rows: [(MarketListing, Decimal?)]) -> String {
        CSVWriter.render(
            header: ["exchange", "symbol", "base", "quote", "nameKo", "nameEn", "last"],
            rows: rows.map { listing, last in
                [
                    listing.exchange, listing.market.description, listing.market.base, listing.market.quote,
                    listing.koreanName ?? "", listing.englishName ?? "", last?.description ?? "",
                ]
            })
    }

    /// Name columns appear only when some result has a name.
    static func table(_ rows: [(MarketListing, Decimal?)], style: TextStyle, width: Int) -> String {
        let korean = rows.contains { $0.0.koreanName != nil }
        let english = rows.contains { $0.0.englishName != nil }
        var columns: [TextTable.Column] = [.init("EXCHANGE"), .init("MARKET")]
        if korean { columns.append(.init("NAME (KO)", priority: 2)) }
        if english { columns.append(.init("NAME (EN)", priority: 1)) }
        columns.append(.init("LAST", .right))
        var table = TextTable(columns: columns)
        for (listing, last) in rows {
            var texts = [listing.exchange, listing.market.description]
            if korean { texts.append(listing.koreanName ?? "") }
            if english { texts.append(listing.englishName ?? "") }
            texts.append(last.map { DecimalFormatting.price($0, currency: listing.market.quote) } ?? "-")
            table.append(texts: texts)
        }
        return table.render(width: width, style: style)
    }
}
