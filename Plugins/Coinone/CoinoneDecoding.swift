import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Coinone's public v2 answers into the normalized model: pure functions over parsed
/// JSON.
enum CoinoneDecoding {
    /// The code Coinone gives a currency it does not list ("Unknown CryptoCurrency").
    static let unknownCurrencyCode = "108"

    /// The code of a request refused for exceeding 300 requests a minute ("Blocked user access").
    static let blockedCode = "4"

    /// Coinone's answers: the data at the top level beside `"result":"success"`, or an error.
    static let envelope = ResponseEnvelope(error: { json, _ in venueError(in: json) })

    /// The venue error in a Coinone envelope, if any, code and message kept verbatim.
    ///
    /// Errors come with HTTP 200 as `{"result":"error","error_code":"108","error_msg":"Unknown
    /// CryptoCurrency"}`; the rate-limit block is written in camel case (`errorCode`,
    /// `errorMsg`), so both spellings are read. (Code 4 is a rate limit and 108 "not listed":
    /// the descriptor says so.)
    static func venueError(in json: JSONCursor) -> VenueErrorFields? {
        guard case .string(let result)? = json["result"].value, result != "success" else { return nil }
        let code = (try? json["error_code"].text()) ?? (try? json["errorCode"].text()) ?? ""
        let message = (try? json["error_msg"].text()) ?? (try? json["errorMsg"].text()) ?? ""
        return VenueErrorFields(code: code.isEmpty ? result : code, message: message)
    }

    /// The tickers of a `ticker_new` answer (always an array, for one market or all).
    ///
    /// Each ticker is decoded on its own: one with an odd market or a value out of grammar or
    /// bounds is skipped and reported, and the others answer.
    static func quotes(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        try .elements(
            of: json["tickers"], venue: CoinoneAdapter.descriptor.id, nameKey: "target_currency",
            market: { try? market($0) }
        ) { ticker throws(JSONDecodingError) in try quote(ticker) }
    }

    /// One ticker. `first` is the price 24 hours ago (Coinone's window is rolling), so the change
    /// is `last - first`, exact, with the percent rounded to `PriceChange.percentScale` decimals.
    /// The stream's tickers have the same fields, with `first` the UTC day's first price: the
    /// stream passes that `changeBasis` (`nil`: the descriptor's).
    static func quote(_ ticker: JSONCursor, changeBasis: ChangeBasis? = nil) throws(JSONDecodingError) -> Quote {
        try Quote(
            ticker, fields: tickerFields, market: try self.market(ticker), venue: CoinoneAdapter.descriptor,
            changeBasis: changeBasis)
    }

    static let tickerFields = TickerFields(
        last: "last", open: "first", high: "high", low: "low", change: .sinceOpen, baseVolume: "target_volume",
        quoteVolume: "quote_volume", time: "timestamp")

    /// The market named by an object's `quote_currency` and `target_currency`.
    static func market(_ object: JSONCursor) throws(JSONDecodingError) -> Market {
        let quote = try object["quote_currency"].string()
        let target = try object["target_currency"].string()
        guard let market = APIRouter.market(quote: quote, target: target) else {
            throw object.failure("unknown market '\(target.prefix(20))/\(quote.prefix(20))'")
        }
        return market
    }

    /// The markets of a `/markets/{QUOTE}` answer, without those whose trading is suspended
    /// (`trade_status` 0).
    ///
    /// Each market is read on its own: one whose currencies are not strings or not coin codes
    /// (empty, a quote or a control character in one), or whose `trade_status` is not a whole
    /// number, is skipped and reported with its path, and every other market is listed.
    static func markets(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        try .elements(
            of: json["markets"], venue: CoinoneAdapter.descriptor.id, nameKey: "target_currency",
            market: { try? market($0) }
        ) { entry throws(JSONDecodingError) in
            guard try entry["trade_status"].optionalInt64() != 0 else { return nil }
            let market = try self.market(entry)
            return MarketListing(
                exchange: CoinoneAdapter.descriptor.id, market: market, venueSymbol: "\(market.quote)/\(market.base)")
        }
    }

    /// An order book: `bids` highest first and `asks` lowest first, each level `{price, qty}`.
    static func orderBook(_ json: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        try OrderBook(
            exchange: CoinoneAdapter.descriptor.id, market: market,
            timestamp: try json["timestamp"].optionalInt64().map { Timestamp(millisecondsSince1970: $0) },
            bids: json["bids"], asks: json["asks"], layout: .keyed(price: "price", amount: "qty"))
    }

    /// The trades of a `/trades` answer, newest first. Coinone documents `is_seller_maker`
    /// `true` as a sell and `false` as a buy; the cost is `price × qty`, exact, as Coinone sends
    /// none.
    static func trades(_ json: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        try Trade.keyedRows(json["transactions"], priceKey: "price", amountKey: "qty", timeKey: "timestamp") {
            row throws(JSONDecodingError) in try row["is_seller_maker"].bool() ? .sell : .buy
        }
    }

    /// The bars of a `/chart` answer, oldest first whatever order the answer has. A bar's time is
    /// its start; its volume is `target_volume`, in the base currency.
    static func candles(_ json: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try json["chart"].elements() {
            candles.append(
                Candle(
                    time: Timestamp(millisecondsSince1970: try row["timestamp"].int64()),
                    open: try row["open"].price(),
                    high: try row["high"].price(),
                    low: try row["low"].price(),
                    close: try row["close"].price(),
                    volume: try row["target_volume"].amount()))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .reversed)
    }
}
