import FoundationEssentials

/// A venue's published taker fees, as data: the rate per quote currency, what a buy's fee is
/// taken in, and where and when the figures were read. Promotions, coupons and tiers move a
/// user's real fee: the config file's `venueSettings.<id>.takerFee` overrides it.
public struct FeeSchedule: Sendable, Equatable {
    /// The taker rate of markets quoted in each currency that differs from `defaultTaker`.
    public var takerByQuote: [String: Decimal]
    /// The taker rate of every other market (0.0005 is 0.05 %).
    public var defaultTaker: Decimal
    /// What a buy's fee is taken in.
    public var buyCharge: TakerFee.Charge
    /// The page the figures come from.
    public var source: String
    /// The day they were read there (`2026-09-23`).
    public var asOf: String

    public init(
        defaultTaker: Decimal, takerByQuote: [String: Decimal] = [:], buyCharge: TakerFee.Charge = .quoteCurrency,
        source: String, asOf: String
    ) {
        self.defaultTaker = defaultTaker
        self.takerByQuote = takerByQuote
        self.buyCharge = buyCharge
        self.source = source
        self.asOf = asOf
    }

    /// A schedule written in basis points, as venues publish them (25 is 0.25 %): exact, where a
    /// float literal would not be.
    public init(
        takerBasisPoints: Int, byQuote: [String: Int] = [:], buyCharge: TakerFee.Charge = .quoteCurrency,
        source: String, asOf: String
    ) {
        self.init(
            defaultTaker: Self.rate(basisPoints: takerBasisPoints), takerByQuote: byQuote.mapValues(Self.rate),
            buyCharge: buyCharge, source: source, asOf: asOf)
    }

    static func rate(basisPoints: Int) -> Decimal {
        Decimal(basisPoints) / 10_000
    }

    /// The taker fee of a market quoted in `currency`.
    public func taker(quotedIn currency: String) -> TakerFee {
        TakerFee(rate: takerByQuote[currency] ?? defaultTaker, buyCharge: buyCharge)
    }
}
