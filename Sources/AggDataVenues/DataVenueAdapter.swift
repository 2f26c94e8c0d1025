import AggCore
import AggJSON
import FoundationEssentials

/// The adapter of a venue described by data: it reads a `DataVenueDefinition` and asks the
/// venue through the core venue client, so that a data venue fails, says "not listed" and keeps
/// its rate as a compiled one does.
///
/// Values are read as exact decimal text (`JSONCursor.decimal`), never through a float.
public struct DataVenueAdapter: VenueAdapter {
    public let definition: DataVenueDefinition
    private let client: VenueClient

    public init(definition: DataVenueDefinition, environment: AdapterEnvironment) {
        self.definition = definition
        self.client = VenueClient(
            definition.descriptor, environment: environment, envelope: Self.envelope(definition.errors))
    }

    public var descriptor: AdapterDescriptor { definition.descriptor }

    /// The file's ticker stream, when it declares one.
    public var tickerStream: (any TickerStreamCodec)? { DataVenueTickerStream(definition: definition) }

    /// The registration of `definition`, coming from `origin`.
    public static func registration(_ definition: DataVenueDefinition, origin: VenueOrigin) -> AdapterRegistration {
        AdapterRegistration(descriptor: definition.descriptor, origin: origin) { environment in
            DataVenueAdapter(definition: definition, environment: environment)
        }
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        let endpoint = definition.ticker
        let route = DataRoute(path: fill(endpoint.path, market: market))
        return try await client.get(route, for: market) { json throws(JSONDecodingError) in
            let item = endpoint.item.read(json)
            guard item.isPresent else { throw item.failure("no ticker here") }
            return try quote(item, fields: endpoint.fields, market: market)
        }
    }

    /// Every ticker quoted in the request's currency, entry by entry: an entry whose values do
    /// not decode (out of grammar or bounds, a time in milliseconds declared as seconds) is
    /// skipped and reported, and the others answer.
    public func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        guard let endpoint = definition.allTickers else {
            throw .unsupported(venue: descriptor.id, capability: .allTickers)
        }
        let currency = request.currency
        let route = DataRoute(
            path: endpoint.path.replacingPlaceholder(
                "{quote}", with: PathText.encoded(definition.symbol.cased(currency))))
        let definition = definition
        return try await client.get(route) { json throws(JSONDecodingError) in
            .decoding(
                try Self.items(endpoint.items.read(json), symbol: endpoint.symbol), venue: descriptor.id,
                name: { $0.name },
                market: { entry in (try? entry.symbol()).flatMap { definition.symbol.market(from: $0, quote: currency) }
                }
            ) { entry throws(JSONDecodingError) in
                guard let market = definition.symbol.market(from: try entry.symbol(), quote: currency) else {
                    return nil
                }
                return try quote(entry.item, fields: endpoint.fields, market: market)
            }
        }
    }

    /// Every coin's transfer row from the file's `transferStatus` list, entry by entry.
    public func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        guard let endpoint = definition.transfers else {
            throw .unsupported(venue: descriptor.id, capability: .transferStatus)
        }
        let venue = descriptor.id
        return try await client.get(DataRoute(path: endpoint.path)) { json throws(JSONDecodingError) in
            try endpoint.rows(json, venue: venue)
        }
    }

    /// The market list, entry by entry: an entry whose symbol or names are not strings, or whose
    /// base (when the file names the base's path) is not a coin code, is skipped and reported
    /// with its path, and every other market is listed. A market in a currency agg does not ask
    /// this venue for, or whose symbol the file's template cannot read, is left out unreported.
    public func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        guard let endpoint = definition.markets else {
            throw .unsupported(venue: descriptor.id, capability: .markets)
        }
        let venue = descriptor.id
        let quotes = descriptor.quoteCurrencies
        let symbolFormat = definition.symbol
        return try await client.get(DataRoute(path: endpoint.path)) { json throws(JSONDecodingError) in
            let items = Array(try endpoint.items.read(json).elements().enumerated())
            return .decoding(
                items, venue: venue, name: { (try? endpoint.symbol.read($0.element).text()) ?? "[\($0.offset)]" },
                market: { item in
                    guard let symbol = try? endpoint.symbol.read(item.element).text() else { return nil }
                    return symbolFormat.market(from: symbol, quotes: quotes)
                }
            ) { entry throws(JSONDecodingError) in
                let item = entry.element
                let symbol = try endpoint.symbol.read(item).text()
                let market: Market
                if let basePath = endpoint.base, let quotePath = endpoint.quote {
                    let quoteField = quotePath.read(item)
                    let quote = try quoteField.string().uppercased()
                    guard quotes.contains(quote) else { return nil }
                    let baseField = basePath.read(item)
                    let base = try baseField.string().uppercased()
                    guard AssetCode.isNormalized(base), base != quote else {
                        throw baseField.failure("'\(base.prefix(40))' is not a coin code")
                    }
                    market = Market(base: base, quote: quote)
                } else {
                    guard let named = symbolFormat.market(from: symbol, quotes: quotes) else { return nil }
                    market = named
                }
                return MarketListing(
                    exchange: venue, market: market, venueSymbol: symbol,
                    koreanName: try endpoint.koreanName?.read(item).optionalString(),
                    englishName: try endpoint.englishName?.read(item).optionalString())
            }
        }
    }

    // MARK: Decoding

    /// `path` with the market's codes filled in, in the venue's letter case, each percent-encoded
    /// (`PathText.encoded`): a code cannot add a segment, a query or a fragment to the URL.
    func fill(_ path: String, market: Market) -> String {
        path.replacingPlaceholder("{symbol}", with: PathText.encoded(definition.symbol.symbol(for: market)))
            .replacingPlaceholder("{base}", with: PathText.encoded(definition.symbol.cased(market.base)))
            .replacingPlaceholder("{quote}", with: PathText.encoded(definition.symbol.cased(market.quote)))
    }

    /// One item of a list of tickers, named for reports, its symbol read when decoded: an item
    /// whose symbol is missing or not text costs only itself.
    struct ListItem {
        /// The symbol when it reads, else the member's key or the element's index (`[3]`).
        var name: String
        var item: JSONCursor
        /// Where the symbol is, or `nil` when the member's key is the symbol.
        var symbolField: JSONCursor?

        func symbol() throws(JSONDecodingError) -> String {
            guard let symbolField else { return name }
            return try symbolField.text()
        }
    }

    /// The items of a list: an array's elements with the symbol at `symbol`, or an object's
    /// members that are objects, named by their keys (other members, such as a `date` beside
    /// the tickers, are skipped).
    static func items(_ list: JSONCursor, symbol: DataPath?) throws(JSONDecodingError) -> [ListItem] {
        if list.isObject {
            var items: [ListItem] = []
            for member in try list.members() {
                guard member.value.isObject else { continue }
                let field = symbol?.read(member.value)
                items.append(
                    ListItem(
                        name: field.flatMap { try? $0.text() } ?? member.key, item: member.value, symbolField: field))
            }
            return items
        }
        guard let symbol else { throw list.failure("expected an object keyed by symbol, or a symbol path for a list") }
        return try list.elements().enumerated().map { offset, item in
            let field = symbol.read(item)
            return ListItem(name: (try? field.text()) ?? "[\(offset)]", item: item, symbolField: field)
        }
    }

    /// A quote from one ticker object of an answer, in the file's time format.
    private func quote(_ item: JSONCursor, fields: DataVenueDefinition.TickerFields, market: Market)
        throws(JSONDecodingError) -> Quote
    {
        try definition.quote(
            item, fields: fields, market: market, time: definition.time, changeBasis: descriptor.changeBasis)
    }

    /// The venue's error envelope: an answer with a code at `errors.code` that is not a success
    /// code is an error, whatever its HTTP status.
    static func envelope(_ errors: DataVenueDefinition.ErrorFields) -> ResponseEnvelope {
        ResponseEnvelope { json, _ in
            guard let codePath = errors.code else { return nil }
            let field = codePath.read(json)
            guard field.isPresent, let code = try? field.text(), !errors.successCodes.contains(code) else {
                return nil
            }
            let message = errors.message.flatMap { try? $0.read(json).text() } ?? ""
            return VenueErrorFields(code: code, message: message)
        }
    }
}

/// One endpoint of a data venue: its path under the base URL, filled in.
struct DataRoute: VenueRoute {
    let path: String
}
