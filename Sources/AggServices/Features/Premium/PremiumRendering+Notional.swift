import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// The board at `--notional`: two table columns (KIMCHI and REVERSE at the size, NET before them
/// with `--net`), a header line saying what they are, a line per route that could not be priced,
/// and the JSON fields `"notional"` (top level) and `"atNotional"` (each venue). Without
/// `--notional` none of these appear, and the board is the one it always was.
extension PremiumRendering {
    /// `10M`, `2.5K`, `1B`, `950`: an amount in the notional's own grammar, cut (never rounded
    /// up) to one decimal of its unit, so that a book that fills 9.99M of 10M does not read 10M.
    static func compactAmount(_ value: Decimal) -> String {
        let units: [(Decimal, String)] = [(1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")]
        let (factor, unit) = units.first { value >= $0.0 } ?? (1, "")
        let tenths = DecimalRounding.rounded(
            value / factor * 10 - Decimal(sign: .plus, exponent: -1, significand: 5), places: 0)
        return DecimalText.format(max(tenths, 0) / 10) + unit
    }

    /// The columns' titles: `KIMCHI @10M`, `NET REVERSE @10M`.
    private func notionalTitles(_ notional: PremiumAtNotional) -> (kimchi: String, reverse: String) {
        let prefix = notional.net ? "NET " : ""
        let size = "@" + Self.compactAmount(notional.notional)
        return (prefix + "KIMCHI " + size, prefix + "REVERSE " + size)
    }

    /// The two columns, none without `--notional`.
    func notionalColumns() -> [TextTable.Column] {
        guard let notional = result.atNotional else { return [] }
        let titles = notionalTitles(notional)
        return [.init(titles.kimchi, .right, priority: 3), .init(titles.reverse, .right, priority: 3)]
    }

    /// A local venue's two cells, none without `--notional`; `-` both for a coin not priced
    /// (beyond the top N), `n/a` for a route that could not be (a line under the table says why).
    func notionalCells(base: String, venue: PremiumBoard.VenuePrice, style: TextStyle) -> [TextTable.Cell] {
        guard let notional = result.atNotional else { return [] }
        let directions = notional.directions(coin: base, exchange: venue.exchange)
        return [directions?.kimchi, directions?.reverse].map { route in
            guard let route else { return .init("-") }
            guard let percent = route.percent else { return .init("n/a") }
            var text = DecimalFormatting.percent(percent) + " " + route.global
            if route.depthLimited, let filled = route.filled {
                text += ", fills \(Self.compactAmount(filled)) of \(Self.compactAmount(notional.notional))"
            }
            if percent > 0 { return .init(text, paint: { [style] in style.up($0) }) }
            if percent < 0 { return .init(text, paint: { [style] in style.down($0) }) }
            return .init(text)
        }
    }

    /// The line above the table saying what the columns are; none without `--notional`.
    func notionalHeaderLines() -> [String] {
        guard let notional = result.atNotional else { return [] }
        let size = "\(DecimalFormatting.grouped(notional.notional)) \(notional.currency)"
        let what =
            notional.net
            ? "net of both taker fees and the withdrawal fee of the cheapest open network"
            : "no fee charged (--net subtracts fees and the transfer)"
        return [
            "At \(size): the \(notional.top) coins with the most volume, from the order books both ways "
                + "(KIMCHI: global ask -> local bid; REVERSE: local ask -> global bid), \(what); "
                + "the others keep their last price"
        ]
    }

    /// One line per route shown that could not be priced, in the rows' order:
    /// `BTC upbit kimchi: the withdrawal fee of BTC on binance (BTC) is unknown: no net without it`.
    func notionalProblemLines() -> [String] {
        guard let notional = result.atNotional else { return [] }
        var lines: [String] = []
        for row in rows {
            for venue in row.venues where venue.isLocal {
                guard let directions = notional.directions(coin: row.base, exchange: venue.exchange) else { continue }
                for (name, route) in [("kimchi", directions.kimchi), ("reverse", directions.reverse)] {
                    if let route, route.percent == nil, let problem = route.problem {
                        lines.append(TerminalText.escape("\(row.base) \(venue.exchange) \(name): \(problem)"))
                    }
                }
            }
        }
        return lines
    }

    /// `object` (a venue of the JSON rows) followed by `"atNotional"` when the board was priced
    /// at a notional: `{"kimchi": ROUTE, "reverse": ROUTE}` for a priced local venue, `null`
    /// for a global venue or a coin beyond the top N.
    func withNotional(_ object: JSONValue, base: String, venue: PremiumBoard.VenuePrice) -> JSONValue {
        guard let notional = result.atNotional, case .object(var members) = object else { return object }
        let value: JSONValue =
            notional.directions(coin: base, exchange: venue.exchange).map { directions in
                ["kimchi": Self.json(directions.kimchi), "reverse": Self.json(directions.reverse)]
            } ?? .null
        members.members.append(.init(key: "atNotional", value: value))
        return .object(members)
    }

    /// A route: `{"exchange","percent","filled","depthLimited","problem"}` (decimals as strings).
    static func json(_ route: PremiumAtNotional.Route?) -> JSONValue {
        guard let route else { return .null }
        return [
            "exchange": .string(route.global),
            "percent": JSONOutput.string(route.percent.map { DecimalFormatting.fixed($0, places: 2, grouping: false) }),
            "filled": JSONOutput.decimal(route.filled),
            "depthLimited": .bool(route.depthLimited),
            "problem": JSONOutput.string(route.problem),
        ]
    }

    /// The whole answer followed by `"notional"` when the board was priced at one:
    /// `{"amount","currency","net","top"}`.
    func withNotionalHeader(_ object: JSONValue) -> JSONValue {
        guard let notional = result.atNotional, case .object(var members) = object else { return object }
        members.members.append(
            .init(
                key: "notional",
                value: [
                    "amount": JSONOutput.decimal(notional.notional), "currency": .string(notional.currency),
                    "net": .bool(notional.net), "top": .number(String(notional.top)),
                ]))
        return .object(members)
    }
}
