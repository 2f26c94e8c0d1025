import AggCore

extension BithumbAdapter {
    /// Bithumb's default taker fee in KRW markets, 0.25 % (0.04 % only after a free in-app
    /// application, valid 30 days: set it with `venueSettings.bithumb.takerFee`); BTC markets 0 %.
    static let fees = FeeSchedule(
        takerBasisPoints: 25, byQuote: ["BTC": 0],
        source: "https://support.bithumb.com/hc/ko/articles/51131554420377", asOf: "2026-09-22")
}
