import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Coinbase Exchange's market data answers (candles, trades, book).
extension CoinbaseDecoding {
    /// The bars of a `/products/{id}/candles` answer: rows `[time, low, high, open, close,
    /// volume]` of JSON numbers, newest first, `time` the bar's start in epoch seconds. They are
    /// put oldest first, in OHLCV order; the volume is in the base currency.
    static func candles(_ json: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try json.elements() {
            let seconds = try row[0].int64()
            guard let time = Timestamp(checkedSecondsSince1970: seconds) else {
                throw row[0].failure("\(seconds) seconds is out of range")
            }
            candles.append(
                Candle(
                    time: time,
                    open: try row[3].price(), high: try row[2].price(), low: try row[1].price(),
                    close: try row[4].price(), volume: try row[5].amount()))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .reversed)
    }

    /// The trades of a `/products/{id}/trades` answer, newest first.
    ///
    /// Coinbase's `side` is the side of the MAKER, the order that rested on the book: `buy`
    /// means a resting bid was hit, so the taker sold (a down-tick), and agg, which names the
    /// side that took liquidity, calls it a `sell`; `sell` becomes `buy`. The cost is
    /// `price × size`, exact, as Coinbase sends none.
    static func trades(_ json: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        var trades: [Trade] = []
        for row in try json.elements() {
            // Swapped: Coinbase's word names the maker's side.
            let side = try TradeSide(row["side"], buy: "sell", sell: "buy")
            let price = try row["price"].price()
            let amount = try row["size"].size()
            trades.append(
                Trade(time: try time(row["time"]), side: side, price: price, amount: amount, cost: price * amount))
        }
        return trades.sorted(byTime: \.time, newestFirst: true, ties: .asSent)
    }

    /// The book of a `/products/{id}/book?level=2` answer: levels `[price, size, num_orders]`
    /// (the size is the total at that price; the order count is not kept), bids highest first,
    /// asks lowest first, with the answer's `time` when it has one.
    static func orderBook(_ json: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        let timeField = json["time"]
        return try OrderBook(
            exchange: CoinbaseAdapter.descriptor.id, market: market,
            timestamp: timeField.isPresent ? try time(timeField) : nil, bids: json["bids"], asks: json["asks"],
            layout: .pair)
    }

    /// An ISO-8601 time field, exact to the millisecond.
    static func time(_ field: JSONCursor) throws(JSONDecodingError) -> Timestamp {
        let text = try field.string()
        guard let time = Timestamp(iso8601: text) else {
            throw field.failure("'\(text.prefix(40))' is not an ISO-8601 time")
        }
        return time
    }
}
