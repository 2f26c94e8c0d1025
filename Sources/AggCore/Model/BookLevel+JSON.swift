import AggJSON

extension BookLevel {
    /// Where a venue writes a level's price and amount.
    public enum Layout: Sendable, Equatable {
        /// An object: `{"price": "...", "<amount>": "..."}` (Bithumb `quantity`, Coinone and
        /// Korbit `qty`).
        case keyed(price: String, amount: String)
        /// An array whose first two elements are the price and the amount, whatever follows
        /// (Binance `[price, qty]`, Kraken `[price, volume, time]`, OKX and Coinbase with order
        /// counts).
        case pair
    }

    /// The levels of one side of a book (a JSON array), in the venue's order, each price and
    /// amount read exactly; a price or an amount of zero or less, or out of `ValueBounds`, fails.
    public static func levels(_ side: JSONCursor, _ layout: Layout) throws(JSONDecodingError) -> [BookLevel] {
        var levels: [BookLevel] = []
        for level in try side.elements() {
            switch layout {
            case .keyed(let price, let amount):
                levels.append(BookLevel(price: try level[price].price(), amount: try level[amount].size()))
            case .pair:
                levels.append(BookLevel(price: try level[0].price(), amount: try level[1].size()))
            }
        }
        return levels
    }
}

extension OrderBook {
    /// A book from the two sides of a venue's answer, in `layout`: bids sorted highest first and
    /// asks lowest first, whatever order the venue sent them in.
    public init(
        exchange: String, market: Market, timestamp: Timestamp?, bids: JSONCursor, asks: JSONCursor,
        layout: BookLevel.Layout
    ) throws(JSONDecodingError) {
        self.init(
            exchange: exchange, market: market, timestamp: timestamp,
            bids: try BookLevel.levels(bids, layout).sorted { $0.price > $1.price },
            asks: try BookLevel.levels(asks, layout).sorted { $0.price < $1.price })
    }
}
