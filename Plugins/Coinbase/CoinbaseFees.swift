import AggCore

extension CoinbaseAdapter {
    /// Coinbase Exchange below $10,000 of 30-day volume: 0.6 % taker, paid in the quote currency.
    static let fees = FeeSchedule(
        takerBasisPoints: 60, source: "https://help.coinbase.com/en/exchange/trading-and-funding/exchange-fees",
        asOf: "2026-12-03")
}
