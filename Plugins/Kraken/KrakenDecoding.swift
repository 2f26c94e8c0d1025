import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Kraken's public REST answers into the normalized model: pure functions over
/// parsed JSON.
enum KrakenDecoding {
    /// Kraken's error for a pair it does not list.
    static let unknownPairError = "EQuery:Unknown asset pair"

    /// Kraken's errors for a spent request budget.
    static let rateLimitErrors: Set<String> = ["EAPI:Rate limit exceeded", "EGeneral:Too many requests"]

    /// Kraken's envelope: `{"error":[],"result":{...}}`, or `{"error":["EQuery:Unknown asset
    /// pair"]}` with HTTP 200.
    static let envelope = ResponseEnvelope(error: { json, _ in venueError(in: json) }, payload: payload)

    /// The venue error in a Kraken envelope, if any.
    ///
    /// Kraken's error is a `Category:Message` string, and the whole string is its code (it is
    /// what Kraken documents and what the descriptor's not-listed and rate-limit codes name); the
    /// message is the part after the category, with any further errors after it. Entries
    /// starting with `W` are warnings and do not fail the answer.
    static func venueError(in json: JSONCursor) -> VenueErrorFields? {
        guard case .array(let entries)? = json["error"].value else { return nil }
        let errors = entries.compactMap { entry -> String? in
            guard case .string(let text) = entry, !text.hasPrefix("W") else { return nil }
            return text
        }
        guard let first = errors.first else { return nil }
        let parts = first.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let message = ([parts.count > 1 ? String(parts[1]) : first] + errors.dropFirst()).joined(separator: "; ")
        return VenueErrorFields(code: first, message: message)
    }

    /// The `result` of a successful answer, which must be an object.
    static func payload(_ json: JSONCursor) throws(JSONDecodingError) -> JSONCursor {
        let result = json["result"]
        guard case .object? = result.value else { throw result.failure("expected the result object") }
        return result
    }

    /// The one entry of a one-pair answer (`Ticker`, `Depth`, `Trades`, `OHLC`), besides the
    /// `last` cursor some carry.
    ///
    /// Kraken keys the entry by its own pair name, not the one asked for; the name must belong to
    /// `market` when it can be read, so that an answer for another pair is never taken for it.
    static func entry(_ result: JSONCursor, market: Market) throws(JSONDecodingError) -> JSONCursor {
        let entries = try result.members().filter { $0.key != "last" }
        guard entries.count == 1, let entry = entries.first else {
            throw result.failure("expected one pair in the answer, found \(entries.count)")
        }
        if let answered = KrakenPairs.market(fromPairName: entry.key, quote: market.quote), answered != market {
            throw entry.value.failure("asked for \(market), got \(answered)")
        }
        return entry.value
    }

    /// The ticker of `market` in the `result` of a one-pair `Ticker` answer.
    static func quote(_ result: JSONCursor, market: Market) throws(JSONDecodingError) -> Quote {
        try quote(ticker: try entry(result, market: market), market: market)
    }

    /// Every ticker quoted in `currency` in the `result` of an all-pairs `Ticker` answer; pairs
    /// in other quote currencies are left out. Each ticker is decoded on its own: one whose
    /// values are out of grammar or bounds is skipped and reported, and the others answer.
    static func quotes(_ result: JSONCursor, quotedIn currency: String) throws(JSONDecodingError)
        -> BulkAnswer<Quote>
    {
        .decoding(
            try result.members(), venue: KrakenAdapter.descriptor.id, name: { $0.key },
            market: { KrakenPairs.market(fromPairName: $0.key, quote: currency) }
        ) { member throws(JSONDecodingError) in
            guard let market = KrakenPairs.market(fromPairName: member.key, quote: currency) else { return nil }
            return try quote(ticker: member.value, market: market)
        }
    }

    /// One ticker object. Each field is an array of strings: `c` is the last trade [price, lot],
    /// `h`, `l` and `v` are [today, last 24 hours], `o` (a single string) is today's open, at
    /// 00:00 UTC.
    ///
    /// Kraken sends no change: it is derived from today's open, `c[0] - o`, exact, with the
    /// percent rounded to `PriceChange.percentScale` decimals; so the change is since 00:00 UTC,
    /// while high, low and volume are over the last 24 hours, as other tools read them. Kraken
    /// sends no time.
    static func quote(ticker: JSONCursor, market: Market) throws(JSONDecodingError) -> Quote {
        let last = try ticker["c"][0].price()
        let open = try ticker.optionalPrice("o")
        let change = PriceChange.from(open, to: last)
        return Quote(
            exchange: KrakenAdapter.descriptor.id,
            market: market,
            last: last,
            open: open,
            high: try ticker["h"][1].optionalPrice(),
            low: try ticker["l"][1].optionalPrice(),
            change: change?.change,
            changePercent: change?.percent,
            changeBasis: KrakenAdapter.descriptor.changeBasis,
            baseVolume: try ticker["v"][1].optionalAmount()
        )
    }

    /// The online pairs in the `result` of an `AssetPairs` answer whose quote agg asks Kraken for,
    /// named by their `wsname` (`XBT/USD`); the listing's venue symbol is the alternative name
    /// (`XBTUSD`).
    ///
    /// Each pair is read on its own: one whose `wsname` or `altname` is missing or not a string,
    /// or whose `wsname` is not `BASE/QUOTE` with a coin code as its base (empty, a quote or a
    /// control character in it), is skipped and reported with its path (named by its key), and
    /// every other pair is listed.
    static func markets(_ result: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        .decoding(
            try result.members(), venue: KrakenAdapter.descriptor.id, name: { $0.key },
            market: { member in
                if let wsname = try? member.value["wsname"].string(),
                    let market = KrakenPairs.market(fromWebSocketName: wsname)
                {
                    return market
                }
                return KrakenPairs.quoteCurrencies.lazy.compactMap {
                    KrakenPairs.market(fromPairName: member.key, quote: $0)
                }.first
            }
        ) { member throws(JSONDecodingError) in
            let pair = member.value
            guard try pair["status"].optionalString() ?? "online" == "online" else { return nil }
            guard let market = try pair["wsname"].market(KrakenPairs.webSocketCode) else { return nil }
            return MarketListing(
                exchange: KrakenAdapter.descriptor.id, market: market, venueSymbol: try pair["altname"].string())
        }
    }

    /// The book of `market` in a `Depth` answer: levels `[price, volume, time]`, bids highest
    /// first and asks lowest first.
    static func orderBook(_ result: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        let book = try entry(result, market: market)
        return try OrderBook(
            exchange: KrakenAdapter.descriptor.id, market: market, timestamp: nil, bids: book["bids"],
            asks: book["asks"], layout: .pair)
    }

    /// The trades of `market` in a `Trades` answer, newest first. Rows are
    /// `[price, volume, time, side, type, misc, id]`: the time is in seconds with up to four
    /// decimals, read exactly to the millisecond; side `b` is a buy and `s` a sell.
    static func trades(_ result: JSONCursor, market: Market) throws(JSONDecodingError) -> [Trade] {
        var trades: [Trade] = []
        for row in try entry(result, market: market).elements() {
            let side = try TradeSide(row[3], buy: "b", sell: "s")
            let price = try row[0].price()
            let amount = try row[1].size()
            trades.append(
                Trade(time: try time(row[2]), side: side, price: price, amount: amount, cost: price * amount))
        }
        return trades.sorted(byTime: \.time, newestFirst: true, ties: .reversed)
    }

    /// The bars of `market` in an `OHLC` answer, oldest first. Rows are
    /// `[time, open, high, low, close, vwap, volume, count]`, the time the bar's start in seconds.
    static func candles(_ result: JSONCursor, market: Market) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try entry(result, market: market).elements() {
            candles.append(
                Candle(
                    time: Timestamp(secondsSince1970: try row[0].int64()),
                    open: try row[1].price(),
                    high: try row[2].price(),
                    low: try row[3].price(),
                    close: try row[4].price(),
                    volume: try row[6].amount()))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .asSent)
    }

    /// Seconds since 1970 with a fraction (`1723104734.5678`), as whole milliseconds, exactly:
    /// read from the digits, never through a float, and cut past the millisecond.
    static func time(_ field: JSONCursor) throws(JSONDecodingError) -> Timestamp {
        let text = try field.text()
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { $0.allSatisfy { ("0"..."9").contains($0) } }
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 12, isDigits(whole),
            parts.count == 1 || (!parts[1].isEmpty && isDigits(parts[1])), let seconds = Int64(whole)
        else { throw field.failure("'\(text.prefix(40))' is not a time in seconds") }
        let fraction = parts.count > 1 ? String(parts[1].prefix(3)) : ""
        let milliseconds = Int64(fraction + String(repeating: "0", count: 3 - fraction.count)) ?? 0
        return Timestamp(millisecondsSince1970: seconds * 1000 + milliseconds)
    }
}
