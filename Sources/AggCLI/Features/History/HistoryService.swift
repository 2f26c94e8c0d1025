import AggCore
import FoundationEssentials

/// `agg history`'s use case: one coin's recorded prices (or premiums) from a `HistoryStore`,
/// split into one series per venue and market (or venue and basis), each with its statistics.
public struct HistoryService: Sendable {
    /// One recorded value.
    public struct Point: Sendable, Equatable {
        public var time: Timestamp
        public var value: Decimal

        public init(time: Timestamp, value: Decimal) {
            self.time = time
            self.value = value
        }
    }

    /// One venue's series: its prices in one market, or its premiums on one basis.
    public struct Series: Sendable, Equatable {
        public var exchange: String
        /// The market (`BTC/KRW`) of a price series; the basis (`usd`, `usdt`) of a premium series.
        public var label: String
        /// Oldest first.
        public var points: [Point]
        public var statistics: SeriesStatistics
    }

    /// What was asked, and the series found.
    public struct Report: Sendable, Equatable {
        public var symbol: String
        /// Premiums rather than prices.
        public var premium: Bool
        public var since: Timestamp
        public var until: Timestamp
        /// By exchange, then label.
        public var series: [Series]
    }

    public var store: any HistoryStore

    public init(store: any HistoryStore) {
        self.store = store
    }

    /// The series of `symbol` from `since` up to `until` (exclusive), of `exchanges` (every venue
    /// when empty).
    public func report(symbol: String, exchanges: [String], premium: Bool, since: Timestamp, until: Timestamp)
        async throws(AggError) -> Report
    {
        let query = HistoryQuery(symbol: symbol, exchanges: exchanges, since: since, until: until)
        let series: [Series]
        if premium {
            let points = try await store.premiums(query)
            series = Self.series(points.map { ($0.exchange, $0.basis, Point(time: $0.time, value: $0.percent)) })
        } else {
            let points = try await store.prices(query)
            series = Self.series(
                points.map { ($0.exchange, $0.market.description, Point(time: $0.time, value: $0.last)) })
        }
        return Report(symbol: symbol, premium: premium, since: since, until: until, series: series)
    }

    /// Points grouped by venue and label, each group in the order given (oldest first).
    static func series(_ points: [(exchange: String, label: String, point: Point)]) -> [Series] {
        struct Key: Hashable, Comparable {
            var exchange: String
            var label: String
            static func < (left: Key, right: Key) -> Bool {
                (left.exchange, left.label) < (right.exchange, right.label)
            }
        }
        var groups: [Key: [Point]] = [:]
        for (exchange, label, point) in points {
            groups[Key(exchange: exchange, label: label), default: []].append(point)
        }
        return groups.keys.sorted().compactMap { key in
            guard let points = groups[key], let statistics = SeriesStatistics(points.map(\.value)) else { return nil }
            return Series(exchange: key.exchange, label: key.label, points: points, statistics: statistics)
        }
    }
}
