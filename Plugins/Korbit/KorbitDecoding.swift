import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Korbit's Open API v2 answers into the normalized model: pure functions over
/// parsed JSON.
enum KorbitDecoding {
    /// The code Korbit gives a symbol it does not know, with HTTP 400.
    static let invalidPairCode = "INVALID_CURRENCY_PAIR"

    /// Korbit's envelope: `{"success":true,"data":...}`, or `{"success":false,"error":{...}}`.
    static let envelope = ResponseEnvelope(error: venueError, payload: payload)

    /// The venue error in a Korbit envelope, if any: `{"success":false,"error":{"code":400,
    /// "message":"INVALID_CURRENCY_PAIR"}}`.
    ///
    /// The symbolic `message` is Korbit's own code and becomes the code; a `description`, when
    /// sent, is kept verbatim as the message, else the HTTP status stands in for it.
    static func venueError(in json: JSONCursor, response: HTTPResponse) -> VenueErrorFields? {
        guard case .bool(false)? = json["success"].value else { return nil }
        let error = json["error"]
        return VenueErrorFields(
            code: (try? error["message"].text()) ?? (try? error["code"].text()) ?? String(response.status),
            message: (try? error["description"].text()) ?? "HTTP \(response.status)")
    }

    /// The `data` of a successful envelope, or a failure when the envelope is missing.
    static func payload(_ json: JSONCursor) throws(JSONDecodingError) -> JSONCursor {
        guard case .bool(true)? = json["success"].value else {
            throw json["success"].failure("expected the envelope {\"success\":true,\"data\":...}")
        }
        return json["data"]
    }

    /// The tickers in the `data` of a `/v2/tickers` answer, each mapped field by field.
    ///
    /// Korbit sends its own change: `priceChange` is `close - prevClose` and
    /// `priceChangePercent` a percent, both kept as sent.
    ///
    /// Each ticker is decoded on its own: one with an odd symbol or a value out of grammar or
    /// bounds is skipped and reported, and the others answer.
    static func quotes(_ data: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        try .elements(
            of: data, venue: KorbitAdapter.descriptor.id, nameKey: "symbol",
            market: { APIRouter.market(fromSymbol: (try? $0["symbol"].string()) ?? "") }
        ) { ticker throws(JSONDecodingError) in
            let market = try ticker.market(symbol: "symbol", APIRouter.market(fromSymbol:))
            return try quote(ticker, market: market)
        }
    }

    /// The fields of one ticker of `market`: the objects of `/v2/tickers`, and the `data` of
    /// a stream's ticker frame (whose symbol is beside it).
    static func quote(_ ticker: JSONCursor, market: Market) throws(JSONDecodingError) -> Quote {
        try Quote(ticker, fields: tickerFields, market: market, venue: KorbitAdapter.descriptor)
    }

    static let tickerFields = TickerFields(
        last: "close", open: "open", high: "high", low: "low", previousClose: "prevClose",
        change: .named(change: "priceChange", percent: "priceChangePercent"), baseVolume: "volume",
        quoteVolume: "quoteVolume", time: "lastTradedAt")

    /// The launched pairs in the `data` of a `/v2/currencyPairs` answer; stopped pairs (no
    /// trading) are left out.
    ///
    /// Each pair is read on its own: one whose `symbol` is not a string or not `base_quote` in
    /// lower case with a coin code as its base (empty, a quote or a control character in it), or
    /// whose `status` is not a string, is skipped and reported with its path, and every other
    /// pair is listed.
    static func markets(_ data: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        try .coded(
            data, venue: KorbitAdapter.descriptor.id, codeKey: "symbol", format: APIRouter.symbolCode,
            statusKey: "status", active: "launched", market: APIRouter.market(fromSymbol:))
    }

    /// The order book in the `data` of a `/v2/orderbook` answer: `bids` highest first and `asks`
    /// lowest first, each level `{price, qty}`.
    static func orderBook(_ book: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        try OrderBook(
            exchange: KorbitAdapter.descriptor.id, market: market,
            timestamp: try book["timestamp"].optionalInt64().map { Timestamp(millisecondsSince1970: $0) },
            bids: book["bids"], asks: book["asks"], layout: .keyed(price: "price", amount: "qty"))
    }

    /// The trades in the `data` of a `/v2/trades` answer, newest first: `isBuyerTaker` `true` is a
    /// buy. The cost is `price × qty`, exact, as Korbit sends none.
    static func trades(_ data: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        try Trade.keyedRows(data, priceKey: "price", amountKey: "qty", timeKey: "timestamp") {
            row throws(JSONDecodingError) in try row["isBuyerTaker"].bool() ? .buy : .sell
        }
    }

    /// The bars in the `data` of a `/v2/candles` answer, oldest first whatever order the answer
    /// has. A bar's time is its start; its volume is in the base currency.
    static func candles(_ data: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try data.elements() {
            candles.append(
                Candle(
                    time: Timestamp(millisecondsSince1970: try row["timestamp"].int64()),
                    open: try row["open"].price(),
                    high: try row["high"].price(),
                    low: try row["low"].price(),
                    close: try row["close"].price(),
                    volume: try row["volume"].amount()))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .asSent)
    }
}
