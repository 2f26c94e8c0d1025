import AggCore
import AggJSON

/// A simple REST venue described by data: who it is, where its ticker, all-tickers and market
/// list answers are, and where in those answers each field is. `DataVenueAdapter` interprets it.
///
/// The file format is documented in `docs/data-venues.md`; `DataVenueDefinition.parse` checks a
/// file strictly (unknown keys included) and names the JSON path of the first problem.
public struct DataVenueDefinition: Sendable {
    /// The format version this build reads.
    public static let formatVersion = 1

    public var descriptor: AdapterDescriptor
    public var symbol: SymbolTemplate
    public var time: VenueTimeFormat
    public var errors: ErrorFields
    public var ticker: TickerEndpoint
    public var allTickers: ListEndpoint?
    public var markets: MarketsEndpoint?
    /// The ticker stream, when the file declares one (`DataVenueStream`).
    public var stream: DataVenueStream?
    /// The transfer list with withdrawal fees, when the file declares one.
    public var transfers: DataVenueTransfers?

    /// Where a venue's error code and message are, and which codes mean success.
    public struct ErrorFields: Sendable {
        /// The code's path; an answer with a code there (other than a success code) is an error.
        public var code: DataPath?
        public var message: DataPath?
        /// Codes that venues put in every answer, errors or not (OKX's `"0"`).
        public var successCodes: Set<String>
    }

    /// The fields of a ticker, each a path below the ticker object.
    public struct TickerFields: Sendable {
        public var last: DataPath
        public var open, high, low, previousClose, change, changePercent, changeFraction: DataPath?
        public var baseVolume, quoteVolume, time: DataPath?

        /// The names a definition may use, `last` required.
        static let names = [
            "last", "open", "high", "low", "previousClose", "change", "changePercent", "changeFraction",
            "baseVolume", "quoteVolume", "time",
        ]
    }

    /// The one-market ticker: a path under the base URL and where the ticker object is.
    public struct TickerEndpoint: Sendable {
        /// `/trading-pairs/{symbol}/ticker`; `{symbol}`, `{base}` and `{quote}` are filled in.
        public var path: String
        public var item: DataPath
        public var fields: TickerFields
    }

    /// Every ticker in one request: a list of ticker objects (or an object keyed by symbol).
    public struct ListEndpoint: Sendable {
        /// May hold `{quote}`.
        public var path: String
        public var items: DataPath
        /// The venue symbol in each item; the member name when the items are an object's members.
        public var symbol: DataPath?
        public var fields: TickerFields
    }

    /// The market list.
    public struct MarketsEndpoint: Sendable {
        public var path: String
        public var items: DataPath
        public var symbol: DataPath
        public var base, quote, englishName, koreanName: DataPath?
    }
}

/// What is wrong with a venue definition: the JSON path in the file, and the problem.
public struct DataVenueDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}

extension DataVenueDefinition {
    static let keys = [
        "format", "id", "name", "country", "homeCurrency", "quoteCurrencies", "baseURL", "requestsPerSecond",
        "quotaHeader", "changeBasis", "symbol", "time", "errors", "ticker", "allTickers", "markets", "stream",
        "transferStatus", "takerFee", "note",
    ]

    /// The definition in `bytes`, checked strictly.
    public static func parse(_ bytes: [UInt8]) throws(DataVenueDefinitionError) -> DataVenueDefinition {
        do throws(JSONDecodingError) {
            return try JSONCursor.decodeStrictly(bytes, decode)
        } catch {
            throw DataVenueDefinitionError(path: error.path, problem: error.reason)
        }
    }

    private static func decode(_ root: JSONCursor) throws(JSONDecodingError) -> DataVenueDefinition {
        try requireKeys(root, allowed: keys)
        // The number itself: `"format":"1"` is a string, and a version is not guessed from text.
        guard case .number = root["format"].value else {
            throw root["format"].failure(
                "expected the number \(formatVersion), found \(root["format"].value?.kindDescription ?? "nothing")")
        }
        let format = try root["format"].int64()
        guard format == Int64(formatVersion) else {
            throw root["format"].failure("this agg reads format \(formatVersion), not \(format)")
        }
        let id = try root["id"].string()
        guard !id.isEmpty, id.count <= 20,
            id.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) })
        else { throw root["id"].failure("'\(id.prefix(40))' is not 1 to 20 lower-case letters and digits") }
        let name = try root["name"].string()
        guard !name.isEmpty, name.count <= 40,
            !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true })
        else { throw root["name"].failure("expected a name of 1 to 40 printable characters") }
        let country = try root["country"].string()
        guard country.count == 2 || country == "global", country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw root["country"].failure("expected a two-letter country code or \"global\"")
        }
        let home = try code(root["homeCurrency"])
        var quotes: [String] = []
        for element in try root["quoteCurrencies"].elements() {
            let quote = try code(element)
            if !quotes.contains(quote) { quotes.append(quote) }
        }
        guard quotes.contains(home) else {
            throw root["quoteCurrencies"].failure("the home currency \(home) is not among them")
        }
        let baseURL = try root["baseURL"].string()
        guard BaseURL.isValid(baseURL) else { throw root["baseURL"].failure("expected \(BaseURL.requirement)") }
        guard case .number(let rateText)? = root["requestsPerSecond"].value, let rate = Double(rateText), rate > 0,
            rate <= 1000
        else { throw root["requestsPerSecond"].failure("expected a number above 0 and at most 1000") }
        let quotaHeader = try choice(root["quotaHeader"], QuotaHeader.self)
        let changeBasis = try choice(root["changeBasis"], ChangeBasis.self)

        let symbolNode = root["symbol"]
        try requireKeys(symbolNode, allowed: ["template", "case"])
        let letterCase = try choice(symbolNode["case"], SymbolTemplate.LetterCase.self) ?? .upper
        let templateText = try symbolNode["template"].string()
        guard let symbol = SymbolTemplate(templateText, letterCase: letterCase) else {
            throw symbolNode["template"].failure(
                "expected {base} and {quote} once each, with only letters, digits and -_.~: between them")
        }

        let time = try timeFormat(root["time"])
        let errors = try errorFields(root["errors"])
        var notListed: Set<String> = []
        if root["errors"]["notListed"].isPresent {
            for element in try root["errors"]["notListed"].elements() { notListed.insert(try element.text()) }
        }

        let ticker = TickerEndpoint(
            path: try endpointPath(
                root["ticker"]["path"], placeholders: ["{symbol}", "{base}", "{quote}"], needsMarket: true),
            item: try path(root["ticker"]["item"]) ?? .root,
            fields: try fields(root["ticker"]["fields"]))
        try requireKeys(root["ticker"], allowed: ["path", "item", "fields"])

        var allTickers: ListEndpoint?
        let all = root["allTickers"]
        if all.isPresent {
            try requireKeys(all, allowed: ["path", "items", "symbol", "fields"])
            allTickers = ListEndpoint(
                path: try endpointPath(all["path"], placeholders: ["{quote}"], needsMarket: false),
                items: try path(all["items"]) ?? .root, symbol: try path(all["symbol"]),
                fields: try fields(all["fields"]))
        }
        var markets: MarketsEndpoint?
        let list = root["markets"]
        if list.isPresent {
            try requireKeys(list, allowed: ["path", "items", "symbol", "base", "quote", "englishName", "koreanName"])
            guard let symbolPath = try path(list["symbol"]) else {
                throw list["symbol"].failure("expected a JSON path")
            }
            markets = MarketsEndpoint(
                path: try endpointPath(list["path"], placeholders: [], needsMarket: false),
                items: try path(list["items"]) ?? .root, symbol: symbolPath, base: try path(list["base"]),
                quote: try path(list["quote"]), englishName: try path(list["englishName"]),
                koreanName: try path(list["koreanName"]))
        }

        let stream = try DataVenueStream.parse(root["stream"])
        let transfers = try DataVenueTransfers.parse(root["transferStatus"])
        let fees = try DataVenueFees.parse(root["takerFee"])

        var capabilities: Set<Capability> = [.ticker]
        if allTickers != nil { capabilities.insert(.allTickers) }
        if markets != nil { capabilities.insert(.markets) }
        if stream != nil { capabilities.insert(.stream) }
        if transfers != nil { capabilities.insert(.transferStatus) }
        let descriptor = AdapterDescriptor(
            id: id, displayName: name, country: country.uppercased() == "GLOBAL" ? "global" : country.uppercased(),
            homeCurrency: home, quoteCurrencies: quotes, capabilities: capabilities,
            requestsPerSecond: rate,
            defaultBaseURL: baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL,
            changeBasis: changeBasis, notListedCodes: notListed, quotaHeader: quotaHeader,
            stream: stream?.descriptor, fees: fees)
        return DataVenueDefinition(
            descriptor: descriptor, symbol: symbol, time: time, errors: errors, ticker: ticker,
            allTickers: allTickers, markets: markets, stream: stream, transfers: transfers)
    }

    // MARK: Pieces

    static func requireKeys(_ cursor: JSONCursor, allowed: [String]) throws(JSONDecodingError) {
        for member in try cursor.members() where !allowed.contains(member.key) {
            throw member.value.failure(
                "unknown key '\(member.key)'; expected one of: \(allowed.joined(separator: ", "))")
        }
    }

    static func code(_ cursor: JSONCursor) throws(JSONDecodingError) -> String {
        let text = try cursor.string()
        guard AssetCode.isNormalized(text) else {
            throw cursor.failure("'\(text.prefix(40))' is not an upper-case code of letters and digits")
        }
        return text
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ cursor: JSONCursor, _ type: T.Type)
        throws(JSONDecodingError) -> T? where T.RawValue == String
    {
        guard cursor.isPresent else { return nil }
        let text = try cursor.string()
        guard let value = T(rawValue: text) else {
            throw cursor.failure(
                "'\(text.prefix(40))' is not one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    static func path(_ cursor: JSONCursor) throws(JSONDecodingError) -> DataPath? {
        guard cursor.isPresent else { return nil }
        let text = try cursor.string()
        guard let path = DataPath(text) else {
            throw cursor.failure("'\(text.prefix(60))' is not a JSON path such as $.data[0].last")
        }
        return path
    }

    static func fields(_ cursor: JSONCursor) throws(JSONDecodingError) -> TickerFields {
        try requireKeys(cursor, allowed: TickerFields.names)
        guard let last = try path(cursor["last"]) else { throw cursor["last"].failure("expected a JSON path") }
        if cursor["changePercent"].isPresent, cursor["changeFraction"].isPresent {
            throw cursor["changeFraction"].failure("give changePercent or changeFraction, not both")
        }
        return TickerFields(
            last: last, open: try path(cursor["open"]), high: try path(cursor["high"]), low: try path(cursor["low"]),
            previousClose: try path(cursor["previousClose"]), change: try path(cursor["change"]),
            changePercent: try path(cursor["changePercent"]), changeFraction: try path(cursor["changeFraction"]),
            baseVolume: try path(cursor["baseVolume"]), quoteVolume: try path(cursor["quoteVolume"]),
            time: try path(cursor["time"]))
    }

    static func timeFormat(_ cursor: JSONCursor) throws(JSONDecodingError) -> VenueTimeFormat {
        guard cursor.isPresent else { return .epochMilliseconds }
        try requireKeys(cursor, allowed: ["format", "zone"])
        let format = try cursor["format"].string()
        let zone = try cursor["zone"].optionalString()
        switch format {
        case "epochMilliseconds", "epochSeconds", "iso8601":
            if zone != nil { throw cursor["zone"].failure("only a local time takes a zone") }
            return format == "iso8601" ? .iso8601 : format == "epochSeconds" ? .epochSeconds : .epochMilliseconds
        case "local":
            guard let zone else {
                throw cursor["zone"].failure("a local time needs its zone, such as \"KST\" or \"+09:00\"")
            }
            guard let offset = VenueTimeFormat.offset(zone: zone) else {
                throw cursor["zone"].failure(
                    "'\(zone.prefix(20))' is not a zone: one of \(VenueTimeFormat.zones.keys.sorted().joined(separator: ", ")) or ±HH:MM"
                )
            }
            return .local(offsetSeconds: offset)
        default:
            throw cursor["format"].failure(
                "'\(format.prefix(40))' is not one of: epochMilliseconds, epochSeconds, iso8601, local")
        }
    }

    private static func errorFields(_ cursor: JSONCursor) throws(JSONDecodingError) -> ErrorFields {
        guard cursor.isPresent else { return ErrorFields(code: nil, message: nil, successCodes: []) }
        try requireKeys(cursor, allowed: ["code", "message", "successCodes", "notListed"])
        var success: Set<String> = []
        if cursor["successCodes"].isPresent {
            for element in try cursor["successCodes"].elements() { success.insert(try element.text()) }
        }
        let code = try path(cursor["code"])
        if code == nil, cursor["notListed"].isPresent {
            throw cursor["notListed"].failure("not-listed codes need the code's path in errors.code")
        }
        return ErrorFields(code: code, message: try path(cursor["message"]), successCodes: success)
    }

    /// An endpoint path: starts with `/`, holds only URL-safe characters and the placeholders
    /// allowed; a one-market endpoint must name the market.
    private static func endpointPath(_ cursor: JSONCursor, placeholders: [String], needsMarket: Bool)
        throws(JSONDecodingError) -> String
    {
        let text = try cursor.string()
        var rest = text
        for placeholder in placeholders { rest = rest.replacingPlaceholder(placeholder, with: "") }
        guard text.hasPrefix("/"),
            rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~/?&=,:".contains($0)) })
        else {
            throw cursor.failure(
                "expected a path starting with / of letters, digits and -_.~/?&=,: with only the placeholders "
                    + (placeholders.isEmpty ? "(none)" : placeholders.joined(separator: " ")))
        }
        // `.` and `..` segments would climb out of the base URL's path (`/api/v1` + `/../../etc`
        // is `/etc` once a client resolves it): a path stays under its base URL.
        let pathPart = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if pathPart.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." })
        {
            throw cursor.failure("a path may not hold '.' or '..' segments: it stays under the base URL's path")
        }
        if needsMarket, text.occurrences(of: "{symbol}") == 0,
            text.occurrences(of: "{base}") == 0 || text.occurrences(of: "{quote}") == 0
        {
            throw cursor.failure("the path must name the market with {symbol}, or {base} and {quote}")
        }
        return text
    }
}
