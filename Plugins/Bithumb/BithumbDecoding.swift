import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Bithumb's public answers into the normalized model.
package enum BithumbDecoding {
    /// The code Bithumb puts in `status` when all is well.
    static let successStatus = "0000"

    /// The code Bithumb gives a coin it does not list ("잘못된 코인명입니다.").
    static let notListedCode = "5500"

    /// Bithumb's envelope: `{"status":"0000","data":...}`, or an error
    /// `{"status":"5500","message":"..."}` with HTTP 200 or 4xx.
    static let envelope = ResponseEnvelope(error: { json, _ in venueError(in: json) }, payload: payload)

    /// The venue error in a Bithumb envelope (`{"status":"5500","message":"..."}`), if any.
    ///
    /// Any `status` other than `"0000"` is an error whatever the HTTP status; the message is kept
    /// verbatim (often Korean). Code 5600 carries notices such as "too many requests", which only
    /// the message tells apart, so it stays a venue error rather than being guessed at.
    static func venueError(in json: JSONCursor) -> VenueErrorFields? {
        guard let status = try? json["status"].text() else { return nil }
        guard status != successStatus else { return nil }
        return VenueErrorFields(code: status, message: (try? json["message"].text()) ?? "")
    }

    /// The `data` of a successful answer, which always carries its `status`.
    static func payload(_ json: JSONCursor) throws(JSONDecodingError) -> JSONCursor {
        guard json["status"].isPresent else { throw json["status"].failure("expected the status envelope") }
        return json["data"]
    }

    /// The shapes `data` takes in a ticker answer.
    package enum TickerShape: Sendable {
        /// `/ticker/{COIN}_{PAY}`: `data` is the ticker itself, with its own `date`.
        case single(Market)
        /// `/ticker/ALL_{PAY}`: `data` maps coin codes to tickers, plus a sibling `date`.
        case all(payment: String)
    }

    /// The quotes in a ticker answer's `data`, whichever shape it has.
    ///
    /// Both shapes reduce to (coin, ticker object) entries and a timestamp, and go through the
    /// same `quote(coin:payment:ticker:timestamp:)`. In ALL, each entry is decoded on its own: one
    /// that is not an object (Bithumb has sent strings and nulls there), whose coin code is odd, or
    /// whose values do not decode is skipped and reported, and the others answer. Some recorded
    /// answers carry no `date`: their quotes are good, with no timestamp; a `date` outside
    /// `ValueBounds` fails the answer, whose time it is.
    package static func quotes(data: JSONCursor, shape: TickerShape) throws(JSONDecodingError)
        -> BulkAnswer<Quote>
    {
        let timestamp = try data["date"].optionalVenueTime()
        switch shape {
        case .single(let market):
            return BulkAnswer(values: [
                try quote(coin: market.base, payment: market.quote, ticker: data, timestamp: timestamp)
            ])
        case .all(let payment):
            let entries = try data.members().filter { $0.key != "date" }
            return .decoding(
                entries, venue: BithumbAdapter.descriptor.id, name: \.key,
                market: { AssetCode.isNormalized($0.key) ? Market(base: $0.key, quote: payment) : nil }
            ) { entry throws(JSONDecodingError) in
                guard AssetCode.isNormalized(entry.key) else {
                    throw entry.value.failure("'\(entry.key.prefix(40))' is not a coin code")
                }
                guard case .object? = entry.value.value else {
                    throw entry.value.failure(
                        "expected a ticker object, found \(entry.value.value?.kindDescription ?? "nothing")")
                }
                return try quote(coin: entry.key, payment: payment, ticker: entry.value, timestamp: timestamp)
            }
        }
    }

    /// One ticker object mapped field by field, as other tools map it so that results agree.
    static func quote(coin: String, payment: String, ticker: JSONCursor, timestamp: Timestamp?)
        throws(JSONDecodingError)
        -> Quote
    {
        Quote(
            exchange: BithumbAdapter.descriptor.id,
            market: Market(base: coin, quote: payment),
            last: try ticker.price("closing_price"),
            open: try ticker.optionalPrice("opening_price"),
            high: try ticker.optionalPrice("max_price"),
            low: try ticker.optionalPrice("min_price"),
            previousClose: try ticker.optionalPrice("prev_closing_price"),
            change: try ticker.optionalDecimal("fluctate_24H"),
            changePercent: try ticker.optionalDecimal("fluctate_rate_24H"),
            changeBasis: BithumbAdapter.descriptor.changeBasis,
            baseVolume: try ticker.optionalAmount("units_traded_24H"),
            quoteVolume: try ticker.optionalAmount("acc_trade_value_24H"),
            timestamp: timestamp
        )
    }

    /// Candlestick rows `[time_ms, open, close, high, low, volume]`: close comes before high and
    /// low, and is put back in OHLCV order here.
    static func candles(data: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try data.elements() {
            candles.append(
                Candle(
                    time: Timestamp(millisecondsSince1970: try row[0].int64()),
                    open: try row[1].price(),
                    high: try row[3].price(),
                    low: try row[4].price(),
                    close: try row[2].price(),
                    volume: try row[5].amount()
                )
            )
        }
        return candles
    }

    /// Korea Standard Time, in which `transaction_date` is written without a zone.
    static let kstOffsetSeconds: Int64 = 9 * 3600

    /// Trades, newest first. `type` `bid` is a buy and `ask` a sell.
    static func trades(data: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        var trades: [Trade] = []
        for row in try data.elements() {
            let dateField = row["transaction_date"]
            guard let time = parseKST(try dateField.string()) else {
                throw dateField.failure("expected 'YYYY-MM-DD HH:MM:SS' (KST)")
            }
            let typeField = row["type"]
            let side: TradeSide
            switch try typeField.string() {
            case "bid": side = .buy
            case "ask": side = .sell
            case let other: throw typeField.failure("unknown trade type '\(other)'")
            }
            let price = try row["price"].price()
            let amount = try row["units_traded"].size()
            let cost = try row.optionalDecimal("total") ?? price * amount
            trades.append(Trade(time: time, side: side, price: price, amount: amount, cost: cost))
        }
        return trades.sorted(byTime: \.time, newestFirst: true, ties: .reversed)
    }

    /// `2024-08-08 17:14:33` in KST, as an instant.
    static func parseKST(_ text: String) -> Timestamp? {
        let fields = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0) }
        guard fields.count == 6, fields.allSatisfy({ $0 != nil }) else { return nil }
        let values = fields.compactMap { $0 }
        let civil = CivilTime(
            year: values[0], month: values[1], day: values[2], hour: values[3], minute: values[4],
            second: values[5])
        return Timestamp(civil: civil, offsetSeconds: kstOffsetSeconds)
    }

    /// An order book: `bids` highest first and `asks` lowest first (Bithumb sends them so).
    static func orderBook(data: JSONCursor, market: Market) throws(JSONDecodingError)
        -> OrderBook
    {
        try OrderBook(
            exchange: BithumbAdapter.descriptor.id, market: market,
            timestamp: try data["timestamp"].optionalInt64().map { Timestamp(millisecondsSince1970: $0) },
            bids: data["bids"], asks: data["asks"], layout: .keyed(price: "price", amount: "quantity"))
    }
}
