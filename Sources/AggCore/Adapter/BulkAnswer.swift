import AggJSON

/// An entry of a venue's bulk answer (all tickers, a market list, transfer status) that agg
/// skipped because it did not decode: an unparsable, missing, non-positive or absurd value, or
/// an odd symbol. The rest of the answer still answers; the entry costs only itself.
public struct SkippedEntry: Sendable, Equatable, CustomStringConvertible {
    /// The adapter id.
    public var venue: String
    /// The entry's name as the venue wrote it (`XRP`, `KRW-A"B`), or its position (`[3]`) when
    /// it has no readable name.
    public var entry: String
    /// The market the entry would have answered, when its name maps to one.
    public var market: Market?
    /// The JSON path of the value that failed, such as `$.data.XRP.closing_price`.
    public var path: String
    /// Why the value failed.
    public var reason: String

    public init(venue: String, entry: String, market: Market?, path: String, reason: String) {
        self.venue = venue
        self.entry = entry
        self.market = market
        self.path = path
        self.reason = reason
    }

    /// The error the entry's market gets: a decoding failure naming the entry's own path.
    public var error: AggError { .decoding(venue: venue, path: path, detail: reason) }

    /// "bithumb: skipped XRP: unexpected response at $.data.XRP.closing_price: ...", for
    /// `AGG_DEBUG`.
    public var description: String { "\(venue): skipped \(entry): \(error.summary)" }
}

/// What a bulk answer gave: the values of the entries that decoded, and the entries skipped.
public struct BulkAnswer<Value: Sendable>: Sendable {
    /// The entries that decoded, in the answer's order.
    public var values: [Value]
    /// The entries that did not, in the answer's order.
    public var skipped: [SkippedEntry]

    public init(values: [Value], skipped: [SkippedEntry] = []) {
        self.values = values
        self.skipped = skipped
    }

    /// The same entries with their values transformed.
    public func map<New: Sendable>(_ transform: (Value) throws(AggError) -> New) throws(AggError) -> BulkAnswer<New> {
        var values: [New] = []
        values.reserveCapacity(self.values.count)
        for value in self.values { values.append(try transform(value)) }
        return BulkAnswer<New>(values: values, skipped: skipped)
    }

    /// The entries whose values pass `isIncluded`, and every skipped entry.
    public func filter(_ isIncluded: (Value) -> Bool) -> BulkAnswer {
        BulkAnswer(values: values.filter(isIncluded), skipped: skipped)
    }
}

extension BulkAnswer {
    /// Decodes each entry of a bulk answer on its own: an entry whose `decode` throws is skipped
    /// and recorded with the failure's path, and the others still answer. `decode` returns `nil`
    /// for an entry the caller does not want (another quote currency), which is not a failure.
    ///
    /// This is the one place where a bulk answer becomes per-entry results, for every venue.
    public static func decoding<Entry>(
        _ entries: [Entry], venue: String, name: (Entry) -> String, market: (Entry) -> Market? = { _ in nil },
        decode: (Entry) throws(JSONDecodingError) -> Value?
    ) -> BulkAnswer {
        var answer = BulkAnswer(values: [])
        answer.values.reserveCapacity(entries.count)
        for entry in entries {
            do throws(JSONDecodingError) {
                if let value = try decode(entry) { answer.values.append(value) }
            } catch {
                answer.skipped.append(
                    SkippedEntry(
                        venue: venue, entry: name(entry), market: market(entry), path: error.path,
                        reason: error.reason))
            }
        }
        return answer
    }

    /// The elements of the array at `array`, each decoded on its own (see
    /// `decoding(_:venue:name:market:decode:)`); an element is named by its member `nameKey` when
    /// that is a string, else by its index. Fails only when `array` is not an array.
    public static func elements(
        of array: JSONCursor, venue: String, nameKey: String, market: (JSONCursor) -> Market? = { _ in nil },
        decode: (JSONCursor) throws(JSONDecodingError) -> Value?
    ) throws(JSONDecodingError) -> BulkAnswer {
        let elements = try array.elements()
        return decoding(
            Array(elements.enumerated()), venue: venue,
            name: { element in (try? element.element[nameKey].text()) ?? "[\(element.offset)]" },
            market: { market($0.element) }, decode: { element throws(JSONDecodingError) in try decode(element.element) }
        )
    }
}

extension BulkAnswer where Value == Quote {
    /// The quotes of markets quoted in `currency`, and every skipped entry: for a venue whose
    /// all-tickers answer holds every quote currency at once.
    public func quoted(in currency: String) -> BulkAnswer {
        filter { $0.market.quote == currency }
    }

    /// Each market's result: its quote, the precise failure of its skipped entry, or not listed
    /// when the answer (the venue's whole list, or what it knows of the batch) has no entry for it.
    public func results(for markets: [Market], venue: String) -> [Market: QuoteResult] {
        let byMarket = Dictionary(values.map { ($0.market, $0) }) { first, _ in first }
        var failures: [Market: AggError] = [:]
        for entry in skipped {
            if let market = entry.market, failures[market] == nil { failures[market] = entry.error }
        }
        var results: [Market: QuoteResult] = [:]
        for market in markets {
            if let quote = byMarket[market] {
                results[market] = .success(quote)
            } else if let error = failures[market] {
                results[market] = .failure(error)
            } else {
                results[market] = .failure(.notListed(venue: venue, market: market, code: "", message: ""))
            }
        }
        return results
    }
}

extension BulkAnswer where Value == Quote {
    /// The quote of `market` in an answer about that market alone; `nil` when the answer has
    /// none. An entry skipped for it (or one naming no market) fails with its own failure.
    public func quote(of market: Market) throws(JSONDecodingError) -> Quote? {
        if let quote = values.first(where: { $0.market == market }) { return quote }
        if let entry = skipped.first(where: { $0.market == market || $0.market == nil }) {
            throw JSONDecodingError(path: entry.path, reason: entry.reason)
        }
        return nil
    }

    /// `quote(of:)`, with no quote a failure at `json`: "no ticker for BTC/KRW in the answer".
    public func only(_ market: Market, in json: JSONCursor) throws(JSONDecodingError) -> Quote {
        guard let quote = try quote(of: market) else { throw json.failure("no ticker for \(market) in the answer") }
        return quote
    }
}

extension BulkAnswer where Value == [TransferStatus] {
    /// The rows of the entries that decoded, in order, then one `unknown` row for each skipped
    /// entry that names a coin, its note saying why (`unexpected response at $.data[3]...`): a
    /// coin whose entry is damaged is unknown, not missing, and costs no other coin.
    public func transferRows() -> [TransferStatus] {
        var rows = values.flatMap { $0 }
        for entry in skipped {
            let coin = entry.entry.uppercased()
            guard AssetCode.isNormalized(coin) else { continue }
            rows.append(
                TransferStatus(
                    exchange: entry.venue, coin: coin, deposit: .unknown, withdraw: .unknown, note: entry.error.summary)
            )
        }
        return rows
    }
}
