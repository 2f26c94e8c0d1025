import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of the Upbit-shaped quotation answers (Upbit's API, and Bithumb's v1, which copies
/// it) into the normalized model: one place for both venues, told apart by the venue id, its
/// markets and its change basis.
///
/// API notes, common to both venues:
/// - Answers are bare JSON arrays; numbers are JSON numbers, exponents included (`1.4E-7`), read
///   exactly from their text.
/// - An error is `{"error":{"name":404,"message":"Code not found"}}`, where `name` is a number or
///   a string (`too_many_requests`); Upbit sends it with the HTTP status, Bithumb's v1 often with
///   HTTP 200.
/// - `signed_change_rate` is a fraction (0.0089 is 0.89 %).
public struct UpbitShapeDecoder: Sendable {
    /// The venue id every value carries.
    public var exchange: String
    /// The venue's market codes.
    public var markets: UpbitShapeMarkets
    /// What the venue's change is measured against, when it says so clearly.
    public var changeBasis: ChangeBasis?
    /// Which fields give a ticker's time.
    public var tickerTime: UpbitShapeTickerTime

    public init(
        exchange: String, markets: UpbitShapeMarkets, changeBasis: ChangeBasis?,
        tickerTime: UpbitShapeTickerTime = .timestamp
    ) {
        self.exchange = exchange
        self.markets = markets
        self.changeBasis = changeBasis
        self.tickerTime = tickerTime
    }

    /// The answers: the data itself (usually a bare array), or an error.
    public static let envelope = ResponseEnvelope(error: venueError)

    /// The venue error in an answer, if any; the name becomes the code (the HTTP status when it
    /// has none) and the message is kept verbatim.
    public static func venueError(in json: JSONCursor, response: HTTPResponse) -> VenueErrorFields? {
        let error = json["error"]
        guard case .object? = error.value else { return nil }
        return VenueErrorFields(
            code: (try? error["name"].text()) ?? String(response.status),
            message: (try? error["message"].text()) ?? "")
    }

    /// The tickers of a `/v1/ticker` answer (an array), each mapped field by field; the
    /// fractional `signed_change_rate` becomes a percent by an exact multiplication by 100.
    ///
    /// Each ticker is decoded on its own: one whose market code is odd (`KRW-A"B`) or whose
    /// values do not decode (a price sent as a string, which the venue documents as a number, a
    /// price of zero or less, a time outside `ValueBounds`) is skipped and reported, and the
    /// others answer.
    public func quotes(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        try .elements(
            of: json, venue: exchange, nameKey: "market",
            market: { markets.market(fromCode: (try? $0["market"].string()) ?? "") }
        ) {
            ticker throws(JSONDecodingError) in try quote(ticker)
        }
    }

    /// One ticker object, whose market code is its member `codeKey`: `market` in REST answers,
    /// `code` in stream frames (the other fields are the same in both).
    public func quote(_ ticker: JSONCursor, codeKey: String = "market") throws(JSONDecodingError) -> Quote {
        let marketField = ticker[codeKey]
        let code = try marketField.string()
        guard let market = markets.market(fromCode: code) else {
            throw marketField.failure("unknown market code '\(code.prefix(40))'")
        }
        return Quote(
            exchange: exchange,
            market: market,
            last: try ticker.numberPrice("trade_price"),
            open: try ticker.optionalNumberPrice("opening_price"),
            high: try ticker.optionalNumberPrice("high_price"),
            low: try ticker.optionalNumberPrice("low_price"),
            previousClose: try ticker.optionalNumberPrice("prev_closing_price"),
            change: try ticker.optionalNumber("signed_change_price"),
            changePercent: try ticker.optionalNumber("signed_change_rate").map { $0 * 100 },
            changeBasis: changeBasis,
            baseVolume: try ticker.optionalNumberAmount("acc_trade_volume_24h"),
            quoteVolume: try ticker.optionalNumberAmount("acc_trade_price_24h"),
            timestamp: try tickerTime.read(ticker)
        )
    }

    /// The markets of a `/v1/market/all` answer with their Korean and English names. Codes in a
    /// quote the venue did not have when this was written are left out.
    ///
    /// Each entry is read on its own: one whose fields are not what the API documents (a name
    /// that is not a string, a missing code) or whose code is not `QUOTE-BASE` with a coin code
    /// as its base (`KRW-A"B`, `KRW-`) is skipped and reported with its path, and costs no
    /// other market.
    public func listings(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        let format = markets.code
        return try .elements(
            of: json, venue: exchange, nameKey: "market",
            market: { markets.market(fromCode: (try? $0["market"].string()) ?? "") }
        ) { entry throws(JSONDecodingError) in
            let codeField = entry["market"]
            guard let market = try codeField.market(format) else { return nil }
            return MarketListing(
                exchange: exchange, market: market, venueSymbol: try codeField.string(),
                koreanName: try entry["korean_name"].optionalString(),
                englishName: try entry["english_name"].optionalString())
        }
    }

    /// The bars of a `/v1/candles/...` answer (an array, newest first), oldest first.
    ///
    /// A bar's time is its start, `candle_date_time_utc` (UTC, written without a zone); its
    /// volume is `candle_acc_trade_volume`, in the base currency.
    public static func candles(_ json: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try json.elements() {
            let timeField = row["candle_date_time_utc"]
            guard let time = parseUTC(try timeField.string()) else {
                throw timeField.failure("expected 'YYYY-MM-DDTHH:MM:SS' (UTC)")
            }
            candles.append(
                Candle(
                    time: time,
                    open: try row["opening_price"].price(),
                    high: try row["high_price"].price(),
                    low: try row["low_price"].price(),
                    close: try row["trade_price"].price(),
                    volume: try row["candle_acc_trade_volume"].amount()
                ))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .reversed)
    }

    /// `2024-08-08T08:12:00` (UTC, exactly this layout), as an instant.
    public static func parseUTC(_ text: String) -> Timestamp? {
        let bytes = Array(text.utf8)
        let layout = Array("0000-00-00T00:00:00".utf8)
        guard bytes.count == layout.count else { return nil }
        for (byte, expected) in zip(bytes, layout) {
            if expected == UInt8(ascii: "0") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            } else if byte != expected {
                return nil
            }
        }
        func number(_ range: Range<Int>) -> Int {
            bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let civil = CivilTime(
            year: number(0..<4), month: number(5..<7), day: number(8..<10), hour: number(11..<13),
            minute: number(14..<16), second: number(17..<19))
        return Timestamp(civil: civil, offsetSeconds: 0)
    }

    /// The trades of a `/v1/trades/ticks` answer, newest first. `ask_bid` `ASK` is a sell (the
    /// taker sold into the bids) and `BID` a buy; the cost is `trade_price × trade_volume`,
    /// exact, as neither venue sends one.
    public static func trades(_ json: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        var trades: [Trade] = []
        for row in try json.elements() {
            let sideField = row["ask_bid"]
            let side: TradeSide
            switch try sideField.string() {
            case "BID": side = .buy
            case "ASK": side = .sell
            case let other: throw sideField.failure("unknown ask_bid '\(other.prefix(40))'")
            }
            let price = try row["trade_price"].price()
            let amount = try row["trade_volume"].size()
            trades.append(
                Trade(
                    time: Timestamp(millisecondsSince1970: try row["timestamp"].int64()), side: side,
                    price: price, amount: amount, cost: price * amount))
        }
        return trades.sorted(byTime: \.time, newestFirst: true, ties: .asSent)
    }

    /// The book of `market` in a `/v1/orderbook` answer (an array of one book per market).
    /// Each of `orderbook_units` pairs the n-th best ask with the n-th best bid, best first;
    /// they are split into bids (highest first) and asks (lowest first).
    public func orderBook(_ json: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        let code = UpbitShapeMarkets.code(market)
        var found: JSONCursor?
        for book in try json.elements() where try book["market"].string() == code {
            found = book
            break
        }
        guard let book = found else { throw json.failure("no order book for \(code) in the answer") }
        return try orderBook(entry: book, market: market)
    }

    /// The books of `markets` in a `/v1/orderbook?markets=` answer asking for several: one per
    /// market the answer has, in the answer's order; a market it lacks is left out (the caller
    /// says it is not listed), an entry for a market not asked for is ignored.
    public func orderBooks(_ json: JSONCursor, markets: [Market]) throws(JSONDecodingError) -> [OrderBook] {
        let wanted = Dictionary(markets.map { (UpbitShapeMarkets.code($0), $0) }) { first, _ in first }
        var books: [OrderBook] = []
        for entry in try json.elements() {
            guard let market = wanted[try entry["market"].string()] else { continue }
            books.append(try orderBook(entry: entry, market: market))
        }
        return books
    }

    /// One book of a `/v1/orderbook` answer.
    private func orderBook(entry book: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        var bids: [BookLevel] = []
        var asks: [BookLevel] = []
        for unit in try book["orderbook_units"].elements() {
            asks.append(BookLevel(price: try unit["ask_price"].price(), amount: try unit["ask_size"].size()))
            bids.append(BookLevel(price: try unit["bid_price"].price(), amount: try unit["bid_size"].size()))
        }
        return OrderBook(
            exchange: exchange,
            market: market,
            timestamp: try book["timestamp"].optionalInt64().map { Timestamp(millisecondsSince1970: $0) },
            bids: bids.sorted { $0.price > $1.price },
            asks: asks.sorted { $0.price < $1.price }
        )
    }
}
