import AggCore

extension OKXAdapter {
    /// OKX spot, Regular Lv1: 0.1 % taker, a buy's fee taken out of the coin bought.
    static let fees = FeeSchedule(
        takerBasisPoints: 10, buyCharge: .coin, source: "https://www.okx.com/fees", asOf: "2026-12-03")
}
