import AggJSON

/// How a venue writes a market as one code in its lists: `BTC-USDT` (OKX, Coinbase), `btc_krw`
/// (Korbit), `KRW-BTC` (Upbit), `XBT/USD` (Kraken's `wsname`).
///
/// A bulk answer reads each entry's code with `JSONCursor.market(_:)`: a code in a quote agg
/// does not ask the venue for is no market (left out, not a failure); a code that is not two
/// coin codes around the separator (an empty base, a quote or a control character in it) is a
/// failure at the code's own path, which costs only its entry (`BulkAnswer`).
public struct MarketCode: Sendable {
    /// The character between the two codes.
    public var separator: Character
    /// Whether the quote comes first (`KRW-BTC`).
    public var quoteFirst: Bool
    /// The quote currencies agg asks the venue for.
    public var quotes: Set<String>
    /// The venue writes its codes in lower case (`btc_krw`).
    public var lowercase: Bool
    /// The usual code of a venue's own name for an asset (`XBT` → `BTC`).
    public var unified: @Sendable (String) -> String

    public init(
        separator: Character, quoteFirst: Bool = false, quotes: some Sequence<String>, lowercase: Bool = false,
        unified: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.separator = separator
        self.quoteFirst = quoteFirst
        self.quotes = Set(quotes)
        self.lowercase = lowercase
        self.unified = unified
    }

    /// The market `code` names, `nil` when its quote is not asked for; `.failure` when it is not a
    /// market code.
    public func market(_ code: String) -> Result<Market?, MarketCodeError> {
        let parts = code.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .failure(MarketCodeError(code: code)) }
        let (basePart, quotePart) = quoteFirst ? (parts[1], parts[0]) : (parts[0], parts[1])
        let cased = { (part: Substring) -> String? in
            let text = String(part)
            if self.lowercase {
                return text == text.lowercased() ? text.uppercased() : nil
            }
            return text
        }
        guard let baseText = cased(basePart), let quoteText = cased(quotePart) else {
            return .failure(MarketCodeError(code: code))
        }
        let quote = unified(quoteText)
        guard quotes.contains(quote) else { return .success(nil) }
        let base = unified(baseText)
        guard AssetCode.isNormalized(base), base != quote else { return .failure(MarketCodeError(code: code)) }
        return .success(Market(base: base, quote: quote))
    }
}

/// A venue's market code that is not two coin codes around the venue's separator.
public struct MarketCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code as the venue wrote it.
    public var code: String

    public init(code: String) {
        self.code = code
    }

    /// `unknown market code 'KRW-A"B'` (at most 40 characters of the code).
    public var description: String { "unknown market code '\(code.prefix(40))'" }
}

extension JSONCursor {
    /// This string value as a market code written as `format` says: the market, or `nil` when
    /// its quote is not asked for; a failure here when the value is not a string or not a
    /// market code.
    public func market(_ format: MarketCode) throws(JSONDecodingError) -> Market? {
        switch format.market(try string()) {
        case .success(let market): return market
        case .failure(let error): throw failure(error.description)
        }
    }
}

extension BulkAnswer where Value == MarketListing {
    /// The listings of a venue's list whose entries name their market by one code at `codeKey`
    /// (`symbol`, `instId`, `id`), written as `format` says, and are listed while `statusKey`, when
    /// present, says `active` and `isListed` holds.
    ///
    /// Each entry is read on its own: one whose code is not a string or not a market code, or
    /// whose status is not a string, is skipped and reported with its path (attributed to the
    /// market `market` reads from its code), and every other entry is listed. An entry in a quote
    /// agg does not ask the venue for is left out without a report.
    public static func coded(
        _ array: JSONCursor, venue: String, codeKey: String, format: MarketCode, statusKey: String, active: String,
        market: (String) -> Market?, isListed: (JSONCursor) -> Bool = { _ in true }
    ) throws(JSONDecodingError) -> BulkAnswer {
        try .elements(of: array, venue: venue, nameKey: codeKey, market: { market((try? $0[codeKey].string()) ?? "") })
        {
            entry throws(JSONDecodingError) in
            guard try entry[statusKey].optionalString() ?? active == active, isListed(entry) else { return nil }
            let codeField = entry[codeKey]
            guard let listed = try codeField.market(format) else { return nil }
            return MarketListing(exchange: venue, market: listed, venueSymbol: try codeField.string())
        }
    }
}
