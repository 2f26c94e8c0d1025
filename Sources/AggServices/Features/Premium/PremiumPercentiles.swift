import AggCore
import FoundationEssentials

/// Where each venue's current premium stands among the premiums `agg record` stored over the
/// last seven days: the percentage of those recorded FX-basis (`usd`) premiums of the same venue
/// and coin that are at or below the current one (`SeriesStatistics.percentile(of:in:)`).
///
/// `agg premium` and `agg compare` show it beside the premium when history exists; without any
/// recorded premium for a venue and coin there is no figure, and without any at all no column.
/// Reading the history is a convenience: a database that cannot be read gives no figures.
package struct PremiumPercentiles: Sendable, Equatable {
    /// The window: seven days.
    static let windowSeconds: Int64 = 7 * 86_400

    /// One current premium.
    package struct Current: Sendable {
        var exchange: String
        var symbol: String
        var percent: Decimal
    }

    /// By `"exchange SYMBOL"`.
    private var values: [String: Decimal] = [:]

    static let none = PremiumPercentiles()

    var isEmpty: Bool { values.isEmpty }

    func percentile(exchange: String, symbol: String) -> Decimal? {
        values["\(exchange) \(symbol)"]
    }

    /// The percentiles of `current` in `store` over the seven days before `now`: one read per coin.
    static func load(store: (any HistoryStore)?, current: [Current], now: Timestamp) async -> PremiumPercentiles {
        guard let store, !current.isEmpty else { return .none }
        let since = Timestamp(millisecondsSince1970: now.millisecondsSince1970 - windowSeconds * 1000)
        var result = PremiumPercentiles()
        var symbols: [String] = []
        for item in current where !symbols.contains(item.symbol) { symbols.append(item.symbol) }
        for symbol in symbols {
            let wanted = current.filter { $0.symbol == symbol }
            let recorded: [PremiumPoint]
            do throws(AggError) {
                recorded = try await store.premiums(
                    HistoryQuery(symbol: symbol, exchanges: wanted.map(\.exchange), since: since, until: now))
            } catch {
                return .none
            }
            var byExchange: [String: [Decimal]] = [:]
            for point in recorded where point.basis == "usd" {
                byExchange[point.exchange, default: []].append(point.percent)
            }
            for item in wanted {
                guard let values = byExchange[item.exchange], !values.isEmpty else { continue }
                result.values["\(item.exchange) \(symbol)"] = SeriesStatistics.percentile(of: item.percent, in: values)
            }
        }
        return result
    }
}
