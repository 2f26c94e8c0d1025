import AggCore

extension KrakenAdapter {
    /// Kraken Pro's $0 tier: 0.4 % taker, paid in the quote currency.
    static let fees = FeeSchedule(
        takerBasisPoints: 40, source: "https://www.kraken.com/features/fee-schedule", asOf: "2026-12-03")
}
