import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of OKX's API v5 answers into the normalized model: pure functions over parsed JSON.
enum OKXDecoding {
    /// The code OKX gives an instrument it does not have ("Instrument ID does not exist").
    static let unknownInstrumentCode = "51001"

    /// The code of a request over the rate limit ("Too Many Requests"), usually with HTTP 429
    /// (and then a rate limit whatever the code), sometimes with HTTP 200.
    static let rateLimitCode = "50011"

    /// OKX's envelope: `{"code":"0","msg":"","data":[...]}`, or a code other than `"0"`.
    static let envelope = ResponseEnvelope(error: { json, _ in venueError(in: json) }, payload: payload)

    /// The venue error in an OKX envelope, if any: any `code` other than `"0"`, with HTTP 200
    /// (`{"code":"51001","data":[],"msg":"Instrument ID does not exist"}`); the code and message
    /// are kept verbatim.
    static func venueError(in json: JSONCursor) -> VenueErrorFields? {
        guard let code = try? json["code"].text(), code != "0" else { return nil }
        return VenueErrorFields(code: code, message: (try? json["msg"].text()) ?? "")
    }

    /// The `data` array of a successful envelope.
    static func payload(_ json: JSONCursor) throws(JSONDecodingError) -> JSONCursor {
        guard (try? json["code"].text()) == "0" else {
            throw json["code"].failure("expected the envelope {\"code\":\"0\",\"data\":[...]}")
        }
        let data = json["data"]
        guard case .array? = data.value else { throw data.failure("expected an array") }
        return data
    }

    /// The tickers of a `ticker` or `tickers` answer whose quote agg asks OKX for; the others (a
    /// quote such as EUR) are left out. Each ticker is decoded on its own: one that does not
    /// decode (a value out of grammar or bounds, a `ts` in 2100) is skipped and reported, and the
    /// others answer.
    static func quotes(_ data: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        try .elements(
            of: data, venue: OKXAdapter.descriptor.id, nameKey: "instId",
            market: { APIRouter.market(fromInstrumentID: (try? $0["instId"].string()) ?? "") }
        ) { ticker throws(JSONDecodingError) in
            guard let market = APIRouter.market(fromInstrumentID: try ticker["instId"].string()) else { return nil }
            return try quote(ticker, market: market)
        }
    }

    /// One ticker. `open24h` is the price 24 hours ago (OKX's window is rolling; `sodUtc0` would be
    /// today's open), so the change is `last - open24h`, exact, with the percent rounded to
    /// `PriceChange.percentScale` decimals. For spot, `vol24h` is in the base currency and
    /// `volCcy24h` in the quote currency.
    static func quote(_ ticker: JSONCursor, market: Market) throws(JSONDecodingError) -> Quote {
        try Quote(ticker, fields: tickerFields, market: market, venue: OKXAdapter.descriptor)
    }

    static let tickerFields = TickerFields(
        last: "last", open: "open24h", high: "high24h", low: "low24h", change: .sinceOpen, baseVolume: "vol24h",
        quoteVolume: "volCcy24h", time: "ts")

    /// The live spot instruments of an `instruments` answer whose quote agg asks OKX for.
    ///
    /// Each instrument is read on its own: one whose `instId` is not a string or not
    /// `BASE-QUOTE` with a coin code as its base (empty, a quote or a control character in it),
    /// or whose `state` is not a string, is skipped and reported with its path, and every other
    /// instrument is listed.
    static func markets(_ data: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        try .coded(
            data, venue: OKXAdapter.descriptor.id, codeKey: "instId", format: APIRouter.instrumentCode,
            statusKey: "state", active: "live", market: APIRouter.market(fromInstrumentID:))
    }

    /// The book in a `books` answer: levels `[price, size, "0", orders]`, bids highest first and
    /// asks lowest first.
    static func orderBook(_ data: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        guard let book = try data.elements().first else { throw data.failure("expected one book, found none") }
        return try OrderBook(
            exchange: OKXAdapter.descriptor.id, market: market,
            timestamp: try book["ts"].optionalInt64().map { Timestamp(millisecondsSince1970: $0) },
            bids: book["bids"], asks: book["asks"], layout: .pair)
    }

    /// The trades of a `trades` answer, newest first: `side` is the taker's. The cost is
    /// `px × sz`, exact, as OKX sends none.
    static func trades(_ data: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        try Trade.keyedRows(data, priceKey: "px", amountKey: "sz", timeKey: "ts") { row throws(JSONDecodingError) in
            try TradeSide(row["side"], buy: "buy", sell: "sell")
        }
    }

    /// The bars of a `candles` answer, oldest first (OKX sends the newest first). Rows are
    /// `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]`: `ts` is the bar's start and `vol` is
    /// in the base currency; the newest bar may still be open (`confirm` "0").
    static func candles(_ data: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try data.elements() {
            candles.append(
                Candle(
                    time: Timestamp(millisecondsSince1970: try row[0].int64()),
                    open: try row[1].price(),
                    high: try row[2].price(),
                    low: try row[3].price(),
                    close: try row[4].price(),
                    volume: try row[5].amount()))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .reversed)
    }
}
