import AggJSON
import FoundationEssentials

/// One `--alert` rule: `[VENUE:]SYMBOL FIELD OP VALUE` (`upbit:BTC premium > 3%`),
/// `[VENUE:]SYMBOL withdraw|deposit closed`, or a market event `[VENUE:]SYMBOL|* EVENT`
/// (`upbit:* listed`, `XRP caution on`). See docs/alerts.md for the grammar and semantics.
///
/// A rule without a venue applies to every venue that gives a value for it, each venue with a
/// state of its own; `key(venue:)` names that state.
public struct AlertRule: Sendable, Hashable {
    /// What a threshold rule compares.
    public enum Field: String, Sendable, CaseIterable {
        /// The last trade price, in the market's own quote currency.
        case last
        /// The premium over the global reference on the FX basis, in percent.
        case premium
        /// The premium on the USDT basis, in percent.
        case usdtPremium
        /// The venue's own change over its window, in percent.
        case change

        /// Whether the value is a percent, written with `%` in a rule.
        public var isPercent: Bool { self != .last }
    }

    /// How a value is compared with the threshold.
    public enum Comparison: String, Sendable, CaseIterable {
        case above = ">"
        case below = "<"
        case atLeast = ">="
        case atMost = "<="

        /// Whether `value` meets the comparison against `threshold`.
        public func holds(_ value: Decimal, _ threshold: Decimal) -> Bool {
            switch self {
            case .above: value > threshold
            case .below: value < threshold
            case .atLeast: value >= threshold
            case .atMost: value <= threshold
            }
        }

        /// Whether the comparison is over an upper threshold (`>`, `>=`), so that the reset band
        /// lies below it.
        public var isUpward: Bool { self == .above || self == .atLeast }
    }

    /// Which way of moving a coin a transfer rule watches.
    public enum Direction: String, Sendable, CaseIterable {
        case withdraw, deposit
    }

    /// What the rule waits for.
    public enum Condition: Sendable, Hashable {
        /// A value crossing a threshold.
        case threshold(Field, Comparison, Decimal)
        /// Withdrawals or deposits of the coin closing on the venue.
        case closed(Direction)
        /// A market event of this kind (`agg record --events`): each new event that matches
        /// the rule's venue and coin fires once.
        case event(MarketEventKind)
    }

    /// The symbol of an event rule about every coin and the venue-wide notices (`upbit:* listed`).
    public static let anySymbol = "*"

    /// The event kinds a rule can wait for; deposits and withdrawals closing are the transfer
    /// rules (`XRP withdraw closed`).
    public static let eventKinds: [MarketEventKind] = [
        .listed, .delisted, .cautionOn, .cautionOff, .warningOn, .warningOff, .notice,
    ]

    /// The venue id, when the rule names one.
    public let venue: String?
    /// The coin (`BTC`), upper-case.
    public let symbol: String
    public let condition: Condition

    public init(venue: String?, symbol: String, condition: Condition) {
        self.venue = venue
        self.symbol = symbol
        self.condition = condition
    }

    /// The field's name as a rule and an alert's JSON write it: `premium`, `withdraw`.
    public var fieldName: String {
        switch condition {
        case .threshold(let field, _, _): field.rawValue
        case .closed(let direction): direction.rawValue
        case .event(let kind): kind.rawValue
        }
    }

    /// Whether `event` is one this event rule waits for: its kind, on the rule's venue (any
    /// venue without one), of the rule's coin (any coin, and none, with `*`).
    public func matches(_ event: MarketEvent) -> Bool {
        guard case .event(let kind) = condition, kind == event.kind else { return false }
        if let venue, venue != event.venue { return false }
        return symbol == Self.anySymbol || symbol == event.symbol
    }

    /// An event kind as a rule writes it: `listed`, `caution on`.
    public static func eventWords(_ kind: MarketEventKind) -> String {
        String(kind.rawValue.map { $0 == "_" ? " " : $0 })
    }

    /// The rule in its normal spelling: lower-case venue, upper-case symbol, the field's own
    /// spelling, single spaces, the value in plain decimal text (`upbit:BTC premium > 3%`).
    public var text: String {
        (venue.map { $0 + ":" } ?? "") + body
    }

    /// The name of the rule's state on `venue`: the rule's text with that venue in front, so
    /// that `BTC last > 1` on upbit and `upbit:BTC last > 1` share one state.
    public func key(venue: String) -> String {
        venue + ":" + body
    }

    /// The threshold as a rule writes it: `3%`, `80000000`; `nil` for a transfer rule.
    public var thresholdText: String? {
        guard case .threshold(let field, _, let threshold) = condition else { return nil }
        return Self.valueText(threshold, field: field)
    }

    /// `value` as a rule writes it for `field`: with `%` for percents.
    public static func valueText(_ value: Decimal, field: Field) -> String {
        DecimalText.format(value) + (field.isPercent ? "%" : "")
    }

    private var body: String {
        switch condition {
        case .threshold(let field, let comparison, let threshold):
            "\(symbol) \(field.rawValue) \(comparison.rawValue) \(Self.valueText(threshold, field: field))"
        case .closed(let direction):
            "\(symbol) \(direction.rawValue) closed"
        case .event(let kind):
            "\(symbol) \(Self.eventWords(kind))"
        }
    }
}
