import FoundationEssentials

/// Which way a rate moved since the previous snapshot, judged against a threshold.
public enum RateTrend: String, Sendable, CaseIterable {
    /// Up by more than the threshold.
    case up
    /// Down by more than the threshold.
    case down
    /// Within the threshold either way. (With nothing to compare with there is no trend at all:
    /// `RateChange.trend` is `nil`.)
    case flat
}

/// One currency of a rate table set against the same currency in the previous snapshot.
public struct RateChange: Sendable, Equatable {
    /// The currency code (`KRW`).
    public var code: String
    /// Units of `code` per one unit of the base, now.
    public var rate: Decimal
    /// The rate in the previous snapshot, or `nil` when there is none or it lacked `code`.
    public var previous: Decimal?
    /// `rate - previous`, exact; `nil` when `previous` is.
    public var change: Decimal?
    /// Which way `change` points, judged against the comparison's threshold; `nil` when there
    /// is nothing to compare with (no previous rate), which is not the same as no movement.
    public var trend: RateTrend?

    /// A change with every field given.
    public init(code: String, rate: Decimal, previous: Decimal?, change: Decimal?, trend: RateTrend?) {
        self.code = code
        self.rate = rate
        self.previous = previous
        self.change = change
        self.trend = trend
    }
}

/// Day-over-day comparison of exchange rates: a pure function of two tables and a threshold.
///
/// A rate is `up` when `rate - previous > threshold`, `down` when `rate - previous < -threshold`,
/// and `flat` otherwise, so a change of exactly the threshold is flat. The threshold is in units
/// of the quoted currency (0.01 KRW, 0.01 JPY), not a percentage: it hides the noise of the
/// last decimal places rather than judging how big a move is.
public struct RateComparison: Sendable, Equatable {
    /// 0.01, built from its digits (a `Decimal` literal would pass through `Double`).
    public static let defaultThreshold = Decimal(sign: .plus, exponent: -2, significand: 1)

    /// The smallest change that counts as movement, never negative.
    public let threshold: Decimal

    /// A comparison with `threshold`; a negative threshold is taken as its magnitude.
    public init(threshold: Decimal = RateComparison.defaultThreshold) {
        self.threshold = threshold < 0 ? -threshold : threshold
    }

    /// The trend from `previous` to `rate`: `nil` when there is no previous rate.
    public func trend(from previous: Decimal?, to rate: Decimal) -> RateTrend? {
        guard let previous else { return nil }
        let change = rate - previous
        if change > threshold { return .up }
        if change < -threshold { return .down }
        return .flat
    }

    /// `code`'s rate set against its previous value.
    public func change(code: String, rate: Decimal, previous: Decimal?) -> RateChange {
        RateChange(
            code: code, rate: rate, previous: previous, change: previous.map { rate - $0 },
            trend: trend(from: previous, to: rate))
    }

    /// Every rate of `current` against `previous` (the most recent older snapshot, if any),
    /// sorted by currency code. A currency missing from `previous` gets no previous value and no
    /// trend; one missing from `current` is not listed.
    public func compare(_ current: RateTable, with previous: RateTable?) -> [RateChange] {
        current.rates.keys.sorted().compactMap { code in
            current.rates[code].map { change(code: code, rate: $0, previous: previous?.rates[code]) }
        }
    }
}
