import AggCore

extension KorbitAdapter {
    /// Korbit (Digital X) charges no maker or taker fee from 2026-08-24 to 2027-08-24.
    static let fees = FeeSchedule(
        takerBasisPoints: 0, source: "https://digitalx.miraeasset.com/info/fee?tab=trade", asOf: "2026-09-22")
}
