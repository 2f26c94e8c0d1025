/// One of a venue's event sources, as data: its id, what reads it, how often it is observed by
/// default and how often its venue's rate limit allows at most.
///
/// Most venues have the two generic sources (`marketList`, `transferStatus`), read from their
/// market list and transfer status by the core; a venue with its own public event endpoints
/// (Upbit's market warnings, Bithumb's warnings and notices) declares `.events` and sources read
/// by its adapter (`VenueAdapter.fetchEvents`).
public struct EventSource: Sendable, Hashable {
    /// What turns the venue's answer into facts.
    public enum Reader: String, Sendable, Hashable {
        /// The adapter's own `fetchEvents`.
        case adapter
        /// The core, from `VenueAdapter.marketsAnswer()`: one `listed` fact per coin.
        case marketList
        /// The core, from `VenueAdapter.fetchTransferStatus()`: a closed fact per coin, network
        /// and direction.
        case transferStatus
    }

    /// The source's id within its venue (`markets`, `warnings`, `notices`, `transfers`).
    public var id: String
    public var reader: Reader
    /// How often a recorder observes the source unless told otherwise.
    public var interval: Duration
    /// The shortest interval the venue's rate limit allows for the source (Bithumb's notices: one
    /// request a second per address).
    public var minimumInterval: Duration
    /// What the source reads, for people: the endpoint (`GET /v1/notices?count=20`).
    public var summary: String

    public init(id: String, reader: Reader, interval: Duration, minimumInterval: Duration, summary: String) {
        self.id = id
        self.reader = reader
        self.interval = interval
        self.minimumInterval = minimumInterval
        self.summary = summary
    }

    /// The default interval of a market list or warning list: 5 minutes.
    public static let listInterval: Duration = .seconds(300)
    /// The default interval of a notice list: 1 minute.
    public static let noticeInterval: Duration = .seconds(60)

    /// The id of the market-list source, generic or the venue's own.
    public static let markets = "markets"
    /// The id of the transfer-status source.
    public static let transfers = "transfers"

    /// The interval to observe the source at: `asked`, or the default when `nil`, never shorter
    /// than `minimumInterval`.
    public func interval(asked: Duration?) -> Duration {
        max(asked ?? interval, minimumInterval)
    }

    /// The generic sources of a venue with `capabilities`: `markets` from its market list and
    /// `transfers` from its transfer status, each every 5 minutes, at most as often as one request
    /// at `requestsPerSecond`.
    public static func generic(capabilities: Set<Capability>, requestsPerSecond: Double) -> [EventSource] {
        // A rate outside what a descriptor may declare (`checkRequestRate`: NaN, infinite, zero)
        // gives one request a second, and the minimum is at least a millisecond.
        let rateIsUsable = requestsPerSecond.isFinite && requestsPerSecond >= 0.001
        let milliseconds = rateIsUsable ? min(max((1000 / requestsPerSecond).rounded(.up), 1), 1_000_000) : 1000
        let minimum = Duration.milliseconds(Int64(milliseconds))
        var sources: [EventSource] = []
        if capabilities.contains(.markets) {
            sources.append(marketList(minimumInterval: minimum))
        }
        if capabilities.contains(.transferStatus) {
            sources.append(transferStatus(minimumInterval: minimum))
        }
        return sources
    }

    /// The generic `markets` source: the venue's market list, one `listed` fact per coin.
    public static func marketList(minimumInterval: Duration) -> EventSource {
        EventSource(
            id: markets, reader: .marketList, interval: listInterval, minimumInterval: minimumInterval,
            summary: "the market list (as agg markets reads it)")
    }

    /// The generic `transfers` source: the venue's transfer status, a closed fact per coin, network
    /// and direction.
    public static func transferStatus(minimumInterval: Duration) -> EventSource {
        EventSource(
            id: transfers, reader: .transferStatus, interval: listInterval, minimumInterval: minimumInterval,
            summary: "the transfer status (as agg status reads it)")
    }
}
