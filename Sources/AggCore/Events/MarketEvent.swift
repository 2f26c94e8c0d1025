import FoundationEssentials

/// What happened to a market on a venue, as `agg events` lists it and an alert rule names it.
public enum MarketEventKind: String, Sendable, CaseIterable, Comparable {
    case listed
    case delisted
    case cautionOn = "caution_on"
    case cautionOff = "caution_off"
    case warningOn = "warning_on"
    case warningOff = "warning_off"
    case notice
    case depositClosed = "deposit_closed"
    case depositOpen = "deposit_open"
    case withdrawClosed = "withdraw_closed"
    case withdrawOpen = "withdraw_open"

    public static func < (lhs: MarketEventKind, rhs: MarketEventKind) -> Bool {
        let order = allCases
        return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
    }
}

/// One market event: a fact a venue's source started or stopped showing, the first time agg
/// observed the change.
public struct MarketEvent: Sendable, Hashable {
    /// The venue's id (`upbit`).
    public var venue: String
    public var kind: MarketEventKind
    /// The coin (`XRP`), or `nil` for a venue-wide notice.
    public var symbol: String?
    /// The transfer network (`ERC20`) of a deposit or withdrawal event.
    public var network: String?
    /// What tells this event's fact apart from others of the same condition, venue, coin and
    /// network: a caution's cause (`PRICE_FLUCTUATIONS`), a notice's id or title; empty when the
    /// condition has no parts.
    public var subject: String
    /// The venue's own words, for people: a listing's Korean and English names, a warning's
    /// step and end, a notice's title and link. Venue text: escape it in every output.
    public var detail: String
    /// When agg first saw the change (the observation's time).
    public var firstObserved: Timestamp
    /// The venue's own time for it, when the venue gives one (a notice's publication).
    public var venueTime: Timestamp?

    public init(
        venue: String, kind: MarketEventKind, symbol: String?, network: String? = nil, subject: String = "",
        detail: String = "", firstObserved: Timestamp, venueTime: Timestamp? = nil
    ) {
        self.venue = venue
        self.kind = kind
        self.symbol = symbol
        self.network = network
        self.subject = subject
        self.detail = detail
        self.firstObserved = firstObserved
        self.venueTime = venueTime
    }
}

/// Which events to read back.
public struct EventQuery: Sendable, Equatable {
    /// From this instant (first observed), inclusive.
    public var since: Timestamp
    /// Up to this instant, exclusive; `nil` means up to now.
    public var until: Timestamp?
    /// Kinds to include; empty means every kind.
    public var kinds: Set<MarketEventKind>
    /// Venue ids to include; empty means every venue.
    public var venues: [String]
    /// Coins to include; empty means every coin and the venue-wide notices.
    public var symbols: [String]

    public init(
        since: Timestamp, until: Timestamp? = nil, kinds: Set<MarketEventKind> = [], venues: [String] = [],
        symbols: [String] = []
    ) {
        self.since = since
        self.until = until
        self.kinds = kinds
        self.venues = venues
        self.symbols = symbols
    }
}
