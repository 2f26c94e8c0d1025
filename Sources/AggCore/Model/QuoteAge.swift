import FoundationEssentials

/// How old a quote is at a moment: measured from the venue's own time when the venue sent one,
/// else from when agg received the quote.
public struct QuoteAge: Sendable, Equatable {
    /// What the age is measured from.
    public enum Basis: String, Sendable, Equatable {
        /// The venue's event time (`Quote.timestamp`).
        case venueTime
        /// agg's receive time (`Quote.receivedAt`), for a venue that sends no time.
        case receivedAt
    }

    /// The age in milliseconds; 0 when the venue's clock runs ahead of agg's.
    public let milliseconds: Int64
    public let basis: Basis

    public init(milliseconds: Int64, basis: Basis) {
        self.milliseconds = max(milliseconds, 0)
        self.basis = basis
    }

    /// The age in seconds with three decimals, exact (`12.345`).
    public var seconds: Decimal {
        Decimal(sign: .plus, exponent: -3, significand: Decimal(milliseconds))
    }

    /// Whether the quote is older than `limit` (`--stale-after`, 30 s by default).
    public func isStale(after limit: Duration) -> Bool {
        .milliseconds(milliseconds) > limit
    }

    /// The default of `--stale-after`.
    public static let defaultStaleAfter: Duration = .seconds(30)
}

extension Quote {
    /// The quote's age at `now`; `nil` when it carries neither the venue's time nor a receive
    /// time.
    public func age(at now: Timestamp) -> QuoteAge? {
        if let timestamp {
            return QuoteAge(
                milliseconds: now.millisecondsSince1970 - timestamp.millisecondsSince1970, basis: .venueTime)
        }
        if let receivedAt {
            return QuoteAge(
                milliseconds: now.millisecondsSince1970 - receivedAt.millisecondsSince1970, basis: .receivedAt)
        }
        return nil
    }
}
