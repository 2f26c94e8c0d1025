import AggCore
import AggJSON

/// The markets of one venue that failed with one and the same error (the markets of one batch
/// request, whose error names its URL), reported once rather than once a market: 2,000 coins
/// in a failed request are one line naming a few of them, not 2,000 copies of its URL.
package struct FailureGroup: Sendable, Equatable {
    var exchange: String
    var markets: [Market]
    var error: AggError

    /// How many markets a line names before "and N more".
    static let namedMarkets = 3

    /// The failures of `outcomes`, one group per venue and error, in the order of their first
    /// market.
    package static func groups(_ outcomes: [QuoteService.Outcome]) -> [FailureGroup] {
        var groups: [FailureGroup] = []
        // The groups by venue and error text, then compared whole: 10,000 unlisted coins (each
        // its own error) stay linear, where searching every group would be quadratic.
        var indices: [String: [Int]] = [:]
        for outcome in outcomes {
            guard case .failure(let error) = outcome.result else { continue }
            let key = outcome.exchange + "\u{0}" + error.description
            if let index = indices[key]?.first(where: { groups[$0].error == error }) {
                groups[index].markets.append(outcome.market)
            } else {
                indices[key, default: []].append(groups.count)
                groups.append(FailureGroup(exchange: outcome.exchange, markets: [outcome.market], error: error))
            }
        }
        return groups
    }

    /// "agg: bithumb BTC/KRW: ..." for one market; "agg: upbit 2000 markets (AAA/KRW, AAB/KRW,
    /// AAC/KRW and 1997 more): ..." for several.
    package var line: String {
        guard markets.count > 1 else {
            return "agg: \(exchange) \(markets.first?.description ?? ""): \(error.summaryNamingNoMarket)"
        }
        let named = markets.prefix(Self.namedMarkets).map(\.description).joined(separator: ", ")
        let more = markets.count > Self.namedMarkets ? " and \(markets.count - Self.namedMarkets) more" : ""
        return "agg: \(exchange) \(markets.count) markets (\(named)\(more)): \(error.summaryNamingNoMarket)"
    }

    /// The entry of JSON `errors`: one market's as before (`symbol`); several markets' with
    /// `symbols`, every market of the group, in place of `symbol`.
    var json: JSONValue {
        guard markets.count > 1 else {
            return JSONOutput.error(error, exchange: exchange, symbol: markets.first?.description)
        }
        guard case .object(var object) = JSONOutput.error(error, exchange: exchange, symbol: nil) else {
            return .null
        }
        object.members.insert(
            JSONObject.Member(key: "symbols", value: .array(markets.map { .string($0.description) })), at: 1)
        return .object(object)
    }
}
