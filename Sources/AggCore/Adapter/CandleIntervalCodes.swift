/// What a venue calls each bar length it offers among agg's (`"1m"`, `"1D"`, `60` seconds): the
/// one table a router reads its interval parameter from and its descriptor's `candleIntervals`
/// come from, so that the two cannot disagree.
public struct CandleIntervalCodes<Code: Sendable>: Sendable {
    private let codes: [CandleInterval: Code]

    /// The venue's code for each bar length it offers; a length left out is one it does not offer.
    public init(_ codes: [CandleInterval: Code]) {
        self.codes = codes
    }

    /// The bar lengths offered, shortest first.
    public var intervals: [CandleInterval] {
        CandleInterval.allCases.filter { codes[$0] != nil }
    }

    /// The venue's code for `interval`, or `nil` when it offers no such bars.
    public subscript(_ interval: CandleInterval) -> Code? {
        codes[interval]
    }
}
