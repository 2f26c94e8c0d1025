import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Binance's market data answers (klines, trades, depth, all tickers).
extension BinanceDecoding {
    /// The bars of a `/api/v3/klines` answer: rows `[openTime, open, high, low, close, volume,
    /// closeTime, quoteVolume, trades, takerBuyBase, takerBuyQuote, ignore]`, times as JSON
    /// integers (ms) and decimals as strings. Binance sends them oldest first; they are put in
    /// that order whatever the answer's. A bar's time is its open time; its volume is in the
    /// base asset.
    static func candles(_ json: JSONCursor) throws(JSONDecodingError) -> [Candle] {
        var candles: [Candle] = []
        for row in try json.elements() {
            candles.append(
                Candle(
                    time: Timestamp(millisecondsSince1970: try row[0].int64()),
                    open: try row[1].price(), high: try row[2].price(), low: try row[3].price(),
                    close: try row[4].price(), volume: try row[5].amount()))
        }
        return candles.sorted(byTime: \.time, newestFirst: false, ties: .asSent)
    }

    /// The trades of a `/api/v3/trades` answer (oldest first), newest first.
    ///
    /// `isBuyerMaker` true means the resting order was the buy: the taker sold, a `sell`;
    /// false is a `buy`. The cost is Binance's own `quoteQty` (price × quantity), or the exact
    /// product when it is missing.
    static func trades(_ json: JSONCursor) throws(JSONDecodingError) -> [Trade] {
        var trades: [Trade] = []
        for row in try json.elements() {
            let price = try row["price"].price()
            let amount = try row["qty"].size()
            trades.append(
                Trade(
                    time: Timestamp(millisecondsSince1970: try row["time"].int64()),
                    side: try row["isBuyerMaker"].bool() ? .sell : .buy,
                    price: price, amount: amount,
                    cost: try row.optionalDecimal("quoteQty") ?? price * amount))
        }
        return trades.sorted(byTime: \.time, newestFirst: true, ties: .reversed)
    }

    /// The book of a `/api/v3/depth` answer: `bids` (highest first) and `asks` (lowest first) as
    /// `[price, quantity]` string pairs. Binance sends no time with it.
    static func orderBook(_ json: JSONCursor, market: Market) throws(JSONDecodingError) -> OrderBook {
        try OrderBook(
            exchange: BinanceAdapter.descriptor.id, market: market, timestamp: nil, bids: json["bids"],
            asks: json["asks"], layout: .pair)
    }

    /// The tickers quoted in `currency` in an all-tickers `/api/v3/ticker/24hr` answer (an array
    /// of the one-symbol objects).
    ///
    /// Symbols in quotes agg does not ask Binance for are left out, and so are symbols without a
    /// trade in the last 24 hours (`count` 0: delisted or halted ones, which Binance still lists
    /// with every price at zero). Each other ticker is decoded on its own: one that does not
    /// decode (an odd symbol ending in `currency`, a value out of grammar or bounds) is skipped
    /// and reported, and the others answer.
    static func allQuotes(_ json: JSONCursor, quotedIn currency: String) throws(JSONDecodingError)
        -> BulkAnswer<Quote>
    {
        try .elements(
            of: json, venue: BinanceAdapter.descriptor.id, nameKey: "symbol",
            market: { APIRouter.market(fromVenueSymbol: (try? $0["symbol"].string()) ?? "") }
        ) { ticker throws(JSONDecodingError) in
            let symbolField = ticker["symbol"]
            let symbol = try symbolField.string()
            guard let market = APIRouter.market(fromVenueSymbol: symbol) else {
                guard symbol.hasSuffix(currency) else { return nil }
                throw symbolField.failure("unknown symbol '\(symbol.prefix(40))'")
            }
            guard market.quote == currency, try ticker["count"].optionalInt64() != 0 else { return nil }
            return try quote(ticker)
        }
    }
}
