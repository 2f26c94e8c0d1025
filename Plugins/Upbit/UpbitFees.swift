import AggCore

extension UpbitAdapter {
    /// Upbit's published taker fees: 0.05 % in KRW markets, 0.25 % in BTC and USDT markets (an
    /// event that cut those to 0.05 % ended on 2026-11-20). A buy's fee is paid in KRW on top.
    static let fees = FeeSchedule(
        takerBasisPoints: 25, byQuote: ["KRW": 5], source: "https://upbit.com/service_center/fees",
        asOf: "2026-09-23")
}
