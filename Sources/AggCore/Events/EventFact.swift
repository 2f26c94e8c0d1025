import FoundationEssentials

/// A condition one of a venue's event sources shows at one observation: a market is listed, a
/// coin carries a caution for a cause, a network's deposits are closed, a notice is posted.
///
/// Events are the changes between two observations of the same source: a fact that appears
/// raises its condition's `appeared` kind, one that goes raises its `disappeared` kind.
public struct EventFact: Sendable, Hashable {
    /// The kinds of condition a source can show.
    public enum Condition: String, Sendable, CaseIterable {
        case listed
        case caution
        case warning
        case depositClosed = "deposit_closed"
        case withdrawClosed = "withdraw_closed"
        case notice

        /// The event a fact of this condition raises when it appears.
        public var appeared: MarketEventKind {
            switch self {
            case .listed: .listed
            case .caution: .cautionOn
            case .warning: .warningOn
            case .depositClosed: .depositClosed
            case .withdrawClosed: .withdrawClosed
            case .notice: .notice
            }
        }

        /// The event a fact of this condition raises when it goes, or `nil` when its going is no
        /// event: a notice that drops off a venue's newest-first list is still posted.
        public var disappeared: MarketEventKind? {
            switch self {
            case .listed: .delisted
            case .caution: .cautionOff
            case .warning: .warningOff
            case .depositClosed: .depositOpen
            case .withdrawClosed: .withdrawOpen
            case .notice: nil
            }
        }
    }

    /// What identifies a fact across observations: its condition, coin, network and subject,
    /// not its detail (a renamed coin is not delisted and listed again).
    public struct Identity: Sendable, Hashable, Comparable {
        public var condition: Condition
        public var symbol: String?
        public var network: String?
        public var subject: String

        public init(condition: Condition, symbol: String?, network: String?, subject: String) {
            self.condition = condition
            self.symbol = symbol
            self.network = network
            self.subject = subject
        }

        /// One line that sorts and stores the identity: `condition|symbol|network|subject`.
        public var key: String {
            "\(condition.rawValue)|\(symbol ?? "")|\(network ?? "")|\(subject)"
        }

        public static func < (lhs: Identity, rhs: Identity) -> Bool { lhs.key < rhs.key }
    }

    public var condition: Condition
    /// The coin, or `nil` for a venue-wide fact (a notice that names no coin).
    public var symbol: String?
    public var network: String?
    /// What tells this fact apart from others of the same condition, coin and network: a
    /// caution's cause, a notice's id or title; empty when there is nothing more.
    public var subject: String
    /// The venue's words for people (names, step, end, title and link).
    public var detail: String
    /// The venue's own time for the fact, when it gives one.
    public var venueTime: Timestamp?

    public init(
        condition: Condition, symbol: String?, network: String? = nil, subject: String = "", detail: String = "",
        venueTime: Timestamp? = nil
    ) {
        self.condition = condition
        self.symbol = symbol
        self.network = network
        self.subject = subject
        self.detail = detail
        self.venueTime = venueTime
    }

    public var identity: Identity {
        Identity(condition: condition, symbol: symbol, network: network, subject: subject)
    }
}

/// Everything one event source of one venue showed at one time: the whole of its conditions,
/// so a fact missing from it has gone. A source that failed gives no observation at all (a
/// failed request is not every caution lifted).
public struct EventObservation: Sendable, Equatable {
    /// The venue's id (`bithumb`).
    public var venue: String
    /// The source within the venue (`markets`, `warnings`, `notices`, `transfers`): facts are
    /// compared only with the same source's earlier ones.
    public var source: String
    /// When agg made the observation.
    public var observedAt: Timestamp
    public var facts: [EventFact]
    /// The entries of the venue's answer that did not decode, each costing only itself.
    public var skipped: [SkippedEntry]
    /// The coins the source could not read this time (an entry skipped, a transfer state
    /// `unknown`): their earlier facts that are missing from `facts` have not gone, so they
    /// raise nothing and stay in the state (`EventDiff.transition`).
    public var unread: Set<String>

    public init(
        venue: String, source: String, observedAt: Timestamp, facts: [EventFact], skipped: [SkippedEntry] = [],
        unread: Set<String> = []
    ) {
        self.venue = venue
        self.source = source
        self.observedAt = observedAt
        self.facts = facts
        self.skipped = skipped
        self.unread = unread
    }
}
