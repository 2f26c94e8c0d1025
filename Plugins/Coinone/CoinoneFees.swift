import AggCore

extension CoinoneAdapter {
    /// Coinone's app and web taker fee, 0.25 % (0 % with a free 30-day voucher, and 0 % for Open
    /// API orders with a personal key since 2026-08-21: set it with
    /// `venueSettings.coinone.takerFee`).
    static let fees = FeeSchedule(
        takerBasisPoints: 25, source: "https://coinone.co.kr/support/fee-guide", asOf: "2026-09-22")
}
