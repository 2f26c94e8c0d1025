import FoundationEssentials

/// A venue's taker fee: the share of a trade's value it keeps, and what it takes it in.
public struct TakerFee: Sendable, Equatable {
    /// What a buy's fee is taken in.
    public enum Charge: Sendable, Equatable {
        /// In the quote currency, on top of the order (Upbit, Bithumb, Coinone, Korbit).
        case quoteCurrency
        /// In the coin bought, out of what arrives (Binance without BNB, OKX).
        case coin
    }

    /// The fee as a fraction: 0.0005 is 0.05 %.
    public var rate: Decimal
    /// What a buy's fee is taken in. A sale's fee is always taken out of what it brings.
    public var buyCharge: Charge

    public init(rate: Decimal, buyCharge: Charge = .quoteCurrency) {
        self.rate = rate
        self.buyCharge = buyCharge
    }
}

/// What a venue charges to withdraw a coin on one network, in the coin.
public enum WithdrawalFee: Sendable, Equatable {
    /// The same amount whatever is sent.
    case fixed(Decimal)
    /// A share of what is sent (`rate` 0.001 is 0.1 %), at least `minimum` and at most
    /// `maximum` when there is one (Bithumb's model since autumn 2026).
    case percentage(rate: Decimal, minimum: Decimal, maximum: Decimal?)

    /// The fee for withdrawing `amount`.
    public func fee(for amount: Decimal) -> Decimal {
        switch self {
        case .fixed(let fee):
            return fee
        case .percentage(let rate, let minimum, let maximum):
            let share = DecimalArithmetic.product(amount, rate)
            if share < minimum { return minimum }
            if let maximum, share > maximum { return maximum }
            return share
        }
    }

    /// What arrives when `amount` is withdrawn: `amount` less the fee, never below zero.
    public func arriving(from amount: Decimal) -> Decimal {
        max(DecimalArithmetic.difference(amount, fee(for: amount)), 0)
    }

    /// The amounts at which `fee(for:)` changes its formula (where a percentage meets its
    /// minimum and its maximum), and the amount below which nothing arrives.
    var boundaries: [Decimal] {
        switch self {
        case .fixed(let fee):
            return [fee]
        case .percentage(let rate, let minimum, let maximum):
            guard rate > 0 else { return [minimum] }
            return [minimum, minimum / rate] + (maximum.map { [$0 / rate] } ?? [])
        }
    }

    /// The amount to withdraw for `arriving` to arrive (the inverse of `arriving(from:)` where
    /// something arrives).
    func withdrawn(forArriving arriving: Decimal) -> Decimal {
        switch self {
        case .fixed(let fee):
            return arriving + fee
        case .percentage(let rate, let minimum, let maximum):
            let atMinimum = arriving + minimum
            if atMinimum * rate <= minimum { return atMinimum }
            if let maximum {
                let atMaximum = arriving + maximum
                if atMaximum * rate >= maximum { return atMaximum }
            }
            return arriving / (1 - rate)
        }
    }
}
