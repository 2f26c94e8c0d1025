import AggCore
import FoundationEssentials

/// `agg history`'s use case: one coin's recorded prices (or premiums) from a `HistoryStore`,
/// split into one series per venue and market (or venue and basis), each with its statistics.
package struct HistoryService: Sendable {
    /// One recorded value.
    package struct Point: Sendable, Equatable {
        var time: Timestamp
        var value: Decimal
        /// When agg received the price (`PricePoint.receivedAt`); `nil` for premiums and for
        /// prices recorded before agg kept it.
        var receivedAt: Timestamp?
        /// How old the price was when it was recorded (`PricePoint.age`); `nil` likewise.
        var age: QuoteAge?

        package init(time: Timestamp, value: Decimal, receivedAt: Timestamp? = nil, age: QuoteAge? = nil) {
            self.time = time
            self.value = value
            self.receivedAt = receivedAt
            self.age = age
        }
    }

    /// One venue's series: its prices in one market, or its premiums on one basis.
    package struct Series: Sendable, Equatable {
        var exchange: String
        /// The market (`BTC/KRW`) of a price series; the basis (`usd`, `usdt`) of a premium series.
        var label: String
        /// Oldest first.
        var points: [Point]
        var statistics: SeriesStatistics
    }

    /// What was asked, and the series found.
    package struct Report: Sendable, Equatable {
        var symbol: String
        /// Premiums rather than prices.
        var premium: Bool
        var since: Timestamp
        var until: Timestamp
        /// By exchange, then label.
        var series: [Series]
    }

    var store: any HistoryStore

    package init(store: any HistoryStore) {
        self.store = store
    }

    /// The series of `symbol` from `since` up to `until` (exclusive), of `exchanges` (every venue
    /// when empty).
    func report(symbol: String, exchanges: [String], premium: Bool, since: Timestamp, until: Timestamp)
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
                points.map { point in
                    (
                        point.exchange, point.market.description,
                        Point(time: point.time, value: point.last, receivedAt: point.receivedAt, age: point.age)
                    )
                })
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
