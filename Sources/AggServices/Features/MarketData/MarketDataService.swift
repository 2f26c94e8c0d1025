import AggCore

/// The single-venue market-data use cases: bars, trades and the order book of one market on
/// one venue (a `MarketTarget`, already checked against the venue's capabilities).
package struct MarketDataService: Sendable {
    var factory: AdapterFactory
    var target: MarketTarget

    /// The latest `limit` bars of `interval`, oldest first.
    func candles(interval: CandleInterval, limit: Int) async throws(AggError) -> [Candle] {
        try await factory.adapter(id: target.descriptor.id).candles(
            for: target.market, interval: interval, limit: limit)
    }

    /// The latest `limit` trades, newest first.
    func trades(limit: Int) async throws(AggError) -> [Trade] {
        try await factory.adapter(id: target.descriptor.id).trades(for: target.market, limit: limit)
    }

    /// The order book, `depth` levels a side.
    func orderBook(depth: Int) async throws(AggError) -> OrderBook {
        try await factory.adapter(id: target.descriptor.id).orderBook(for: target.market, depth: depth)
    }

    package init(factory: AdapterFactory, target: MarketTarget) {
        self.factory = factory
        self.target = target
    }
}
