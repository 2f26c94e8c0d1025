import AggCore

extension BinanceAdapter {
    /// Binance spot, Regular tier: 0.1 % taker (0.075 % paying in BNB), a buy's fee taken out of
    /// the coin bought.
    static let fees = FeeSchedule(
        takerBasisPoints: 10, buyCharge: .coin, source: "https://www.binance.com/en/fee/schedule", asOf: "2026-07-26")
}
