import AggJSON

extension Trade {
    /// The trades of an array of rows keyed by name (`{"price":"1.5","qty":"2","timestamp":...}`),
    /// newest first: each row's `priceKey` read as a price and `amountKey` as a size, `timeKey`
    /// in epoch milliseconds and its side from `side`; the cost is `price × amount`, exact, for
    /// venues that send none. Rows of one millisecond keep the venue's order.
    public static func keyedRows(
        _ rows: JSONCursor, priceKey: String, amountKey: String, timeKey: String,
        side: (JSONCursor) throws(JSONDecodingError) -> TradeSide
    ) throws(JSONDecodingError) -> [Trade] {
        var trades: [Trade] = []
        for row in try rows.elements() {
            let price = try row[priceKey].price()
            let amount = try row[amountKey].size()
            trades.append(
                Trade(
                    time: Timestamp(millisecondsSince1970: try row[timeKey].int64()), side: try side(row),
                    price: price, amount: amount, cost: price * amount))
        }
        return trades.sorted(byTime: \.time, newestFirst: true, ties: .asSent)
    }
}

extension TradeSide {
    /// The taker's side read from `field`, where the venue writes `buy` for a taker buying and
    /// `sell` for a taker selling (a venue that names the maker's side passes its words swapped);
    /// any other word fails, quoting its first 40 characters.
    public init(_ field: JSONCursor, buy: String, sell: String) throws(JSONDecodingError) {
        switch try field.string() {
        case buy: self = .buy
        case sell: self = .sell
        case let other: throw field.failure("unknown side '\(other.prefix(40))'")
        }
    }
}
