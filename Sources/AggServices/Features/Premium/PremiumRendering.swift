import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `premium` output in the three formats.
package struct PremiumRendering: Rendering {
    /// Which premiums a table shows.
    package enum Basis: String, CaseIterable, Sendable {
        case fx, usdt, both

        /// The premium rows are ordered by: the one shown first.
        var sortBasis: PremiumBoard.Basis { self == .usdt ? .usdt : .fx }
    }

    var result: PremiumService.Result
    var basis: Basis
    /// The rows to show, in order.
    var rows: [PremiumBoard.Row]
    /// FX attributions by source id.
    var attributions: [String: String]
    /// Each local venue's premium among those recorded over the last seven days; the column and
    /// the JSON field `premiumPercentile7d` appear only when there are any.
    var percentiles: PremiumPercentiles = .none
    /// The global venues asked, whose median is each coin's reference.
    var globalVenues: [String] = []
    /// Global venues the board cannot ask (no all-tickers request), named in the table.
    var notAsked: [String] = []
    /// Symbols asked for that the board does not list: JSON error entries.
    var missingSymbols: [String] = []
    /// Entries of the venues' answers that were skipped (and concern the symbols asked for):
    /// one JSON error entry each, naming the venue, the market and the JSON path.
    var skipped: [SkippedEntry] = []
    /// A price older than this is shown stale (`--stale-after`); ages are measured at `asOf`.
    var staleAfter: Duration = QuoteAge.defaultStaleAfter
    /// Venues whose source is down (the hook for a live board whose stream has dropped: the
    /// stream service sets it): their prices are shown stale whatever their age.
    package var sourceDown: Set<String> = []

    /// How the prices are aged: at the board's time.
    private var aging: QuoteAging { QuoteAging(now: result.asOf, staleAfter: staleAfter) }

    /// A venue's price as a quote, for its age.
    private static func quote(_ venue: PremiumBoard.VenuePrice) -> Quote {
        Quote(
            exchange: venue.exchange, market: venue.market, last: venue.last, timestamp: venue.timestamp,
            receivedAt: venue.receivedAt)
    }

    /// What a symbol missing from the board is told: one line on stderr, one JSON error.
    static func notListedMessage(_ symbol: String) -> String {
        "\(symbol) is not listed on both a local and a global venue"
    }

    /// The board's rows filtered and ordered: the symbols asked for (all when none), at least
    /// `minimumVolume`, favorites first, at most `top`. By premium, rows go by the premium the
    /// table shows: the USDT basis's with `--basis usdt`, else the FX basis's.
    static func select(
        _ board: PremiumBoard?, order: PremiumBoard.Order, basis: Basis = .both, symbols: [String],
        minimumVolume: Decimal?, top: Int?, favorites: Set<String>
    ) -> [PremiumBoard.Row] {
        guard let board else { return [] }
        var rows = board.rows(in: order, basis: basis.sortBasis)
        if !symbols.isEmpty { rows = rows.filter { symbols.contains($0.base) } }
        if let minimumVolume { rows = rows.filter { $0.volume >= minimumVolume } }
        rows = FavoritesFirst.order(rows, favorites: favorites, code: \.base)
        if let top { rows = Array(rows.prefix(top)) }
        return rows
    }

    private static func percentText(_ value: Decimal?) -> String? {
        value.map { DecimalFormatting.fixed($0, places: 2, grouping: false) }
    }

    private static func exact(_ value: Decimal?) -> JSONValue {
        JSONOutput.decimal(value)
    }

    package func json() -> JSONValue {
        let fx: JSONValue =
            result.fx.map { table in
                [
                    "source": .string(table.source),
                    "rate": Self.exact(result.board?.fx.value),
                    "asOf": .string(table.asOf.iso8601Seconds),
                    "attribution": JSONOutput.string(attributions[table.source]),
                ]
            } ?? .null
        let tether: [JSONValue] = (result.board?.tether ?? []).map { price in
            [
                "exchange": .string(price.exchange), "price": Self.exact(price.price),
                "premiumPercent": JSONOutput.string(Self.percentText(price.premiumPercent)),
            ]
        }
        let aging = aging
        let btc = btcPremiums
        let rowValues: [JSONValue] = rows.map { row in
            [
                "base": .string(row.base),
                "venues": .array(
                    row.venues.map { venue in
                        withNotional(
                            withAge(
                                venue, aging: aging,
                                Self.withVersusBTC(
                                    withPercentile(
                                        exchange: venue.exchange, symbol: row.base,
                                        [
                                            "exchange": .string(venue.exchange),
                                            "symbol": .string(venue.market.description),
                                            "last": Self.exact(venue.last),
                                            "lastConverted": Self.exact(venue.lastConverted),
                                            "premiumPercent": JSONOutput.string(Self.percentText(venue.premiumPercent)),
                                            "usdtPremiumPercent": JSONOutput.string(
                                                Self.percentText(venue.usdtPremiumPercent)),
                                            "volumeConverted": Self.exact(venue.volumeConverted),
                                            "local": .bool(venue.isLocal), "outlier": .bool(venue.isOutlier),
                                            "transfer": .string(
                                                result.transfer(venue: venue.exchange, coin: row.base).rawValue),
                                        ]), base: row.base, venue: venue, btc: btc)), base: row.base, venue: venue)
                    }),
                "reference": row.reference.map { reference in
                    [
                        "method": .string(reference.method), "price": Self.exact(reference.converted),
                        "priceUSD": Self.exact(reference.dollars),
                    ]
                } ?? .null,
                "volumeConverted": Self.exact(row.volume),
                "flags": .array(row.flags.map { .string($0.rawValue) }),
            ]
        }
        return withNotionalHeader([
            "asOf": .string(result.asOf.description),
            "currency": .string(result.currency),
            "fx": fx,
            "usdtPremiumPercent": JSONOutput.string(Self.percentText(result.board?.tetherPremiumPercent)),
            "tether": .array(tether),
            "rows": .array(rowValues),
            "errors": .array(
                result.errors.map { JSONOutput.error($0, exchange: nil, symbol: nil) }
                    + skipped.map(\.jsonError)
                    + missingSymbols.map { symbol in
                        [
                            "exchange": .null, "symbol": .string(symbol), "kind": "notListed", "code": .null,
                            "message": .string(Self.notListedMessage(symbol)),
                        ]
                    }),
        ])
    }

    /// `object` followed by `"premiumPercentile7d"` (a decimal string, or null for a venue without
    /// recorded premiums) when history exists.
    private func withPercentile(exchange: String, symbol: String, _ object: JSONValue) -> JSONValue {
        guard !percentiles.isEmpty, case .object(var members) = object else { return object }
        members.members.append(
            .init(
                key: "premiumPercentile7d",
                value: JSONOutput.decimal(percentiles.percentile(exchange: exchange, symbol: symbol))))
        return .object(members)
    }

    /// `object` followed by `QuoteAging`'s `"receivedAt"`, `"ageSeconds"` and `"stale"`.
    private func withAge(_ venue: PremiumBoard.VenuePrice, aging: QuoteAging, _ object: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return object }
        members.members += aging.members(Self.quote(venue), sourceDown: sourceDown.contains(venue.exchange))
        return .object(members)
    }

    static let csvHeader =
        [
            "time", "base", "exchange", "symbol", "last", "lastConverted", "premiumPercent", "usdtPremiumPercent",
            "volumeConverted", "local", "outlier", "reference", "flags",
        ] + QuoteAging.csvHeader

    package func csv() -> String {
        let time = result.asOf.description
        let aging = aging
        return CSVWriter.render(
            header: Self.csvHeader,
            rows: rows.flatMap { row in
                row.venues.map { venue -> [String] in
                    let fields: [String] = [
                        time, row.base, venue.exchange, venue.market.description, venue.last.description,
                        venue.lastConverted.description, Self.percentText(venue.premiumPercent) ?? "",
                        Self.percentText(venue.usdtPremiumPercent) ?? "", venue.volumeConverted?.description ?? "",
                        String(venue.isLocal), String(venue.isOutlier), row.reference?.converted.description ?? "",
                        row.flags.map(\.rawValue).joined(separator: " "),
                    ]
                    return fields
                        + aging.csvFields(Self.quote(venue), sourceDown: sourceDown.contains(venue.exchange))
                }
            })
    }

    /// The lines above the table: the FX rate used, and the tether premium.
    func headerLines() -> [String] {
        guard let board = result.board, let table = result.fx else { return [] }
        let currency = board.currency
        let age = (result.asOf.millisecondsSince1970 - table.asOf.millisecondsSince1970) / 1000
        var lines = [
            "FX: USD→\(currency) \(DecimalFormatting.price(board.fx.value, currency: currency)) from \(table.source), "
                + "as of \(table.asOf.iso8601Seconds) (\(DurationText.ago(seconds: age)))"
                + (attributions[table.source].map { "; \($0)" } ?? "")
        ]
        if let tether = board.tetherPremiumPercent {
            let venues = board.tether.map { "\($0.exchange) \(DecimalFormatting.percent($0.premiumPercent))" }
            lines.append(
                "Tether premium: \(DecimalFormatting.percent(tether)) (USDT/\(currency): \(venues.joined(separator: ", ")))"
            )
        }
        if !globalVenues.isEmpty {
            var line =
                "Global price: each coin's median on \(globalVenues.joined(separator: ", ")) in USD (USDT = USD), "
                + "outliers left out"
            let stablecoins = rows.map(\.base).filter { Conversion.dollarStablecoins.contains($0) }
            if !stablecoins.isEmpty { line += "; \(stablecoins.joined(separator: ", ")): one US dollar" }
            if !notAsked.isEmpty {
                line += "; not asked: \(notAsked.joined(separator: ", ")) (no all-tickers request; agg compare asks it)"
            }
            lines.append(line)
        }
        return lines
    }

    package func table(width: Int, style: TextStyle) -> String {
        guard let board = result.board else { return "" }
        let currency = board.currency
        var columns: [TextTable.Column] = [
            .init("COIN"), .init("EXCHANGE"), .init("LAST (\(currency))", .right),
            .init("GLOBAL (\(currency))", .right, priority: 3),
        ]
        if basis != .usdt { columns.append(.init("PREMIUM", .right)) }
        if basis != .usdt { columns.append(.init("VS BTC", .right, priority: 2)) }
        let btc = btcPremiums
        let showsPercentile = basis != .usdt && !percentiles.isEmpty
        if showsPercentile { columns.append(.init("7D PCTL", .right, priority: 1)) }
        if basis != .fx { columns.append(.init("USDT PREM", .right, priority: basis == .usdt ? 0 : 1)) }
        columns += notionalColumns()
        let aging = aging
        // AGE gives way first on a narrow terminal, unless it carries a stale mark.
        let anyStale = rows.contains { row in
            row.venues.contains {
                $0.isLocal && aging.isStale(Self.quote($0), sourceDown: sourceDown.contains($0.exchange))
            }
        }
        columns += [
            .init("VOLUME 24H", .right, priority: 2),
            .init(QuoteAging.columnTitle, .right, priority: anyStale ? 5 : 1), .init("NOTE", priority: 4),
        ]
        var table = TextTable(columns: columns)
        var notes: [(base: String, note: String)] = []
        for row in rows {
            let closed = row.venues.filter { result.transfer(venue: $0.exchange, coin: row.base) == .closed }
            let marks = [
                row.flags.contains(.noReference) ? "no global price agrees" : nil,
                row.flags.contains(.priceMismatch) && !row.flags.contains(.noReference)
                    ? "outlier: " + row.venues.filter(\.isOutlier).map(\.exchange).joined(separator: ", ") : nil,
                closed.isEmpty ? nil : "transfers closed: " + closed.map(\.exchange).joined(separator: ", "),
            ]
            let note = marks.compactMap { $0 }.joined(separator: "; ")
            if !note.isEmpty { notes.append((row.base, note)) }
            for (index, venue) in row.venues.filter(\.isLocal).enumerated() {
                var cells: [TextTable.Cell] = [
                    .init(index == 0 ? row.base : ""), .init(venue.exchange),
                    .init(DecimalFormatting.price(venue.last, currency: currency)),
                    .init(
                        index == 0
                            ? row.reference.map { DecimalFormatting.money($0.converted, currency: currency) } ?? "-"
                            : ""),
                ]
                if basis != .usdt { cells.append(percentCell(venue.premiumPercent, style: style)) }
                if basis != .usdt {
                    cells.append(
                        percentCell(Self.premiumVersusBTC(base: row.base, venue: venue, btc: btc), style: style))
                }
                if showsPercentile {
                    cells.append(
                        .init(
                            percentiles.percentile(exchange: venue.exchange, symbol: row.base).map {
                                DecimalText.format($0)
                            } ?? "-"))
                }
                if basis != .fx { cells.append(percentCell(venue.usdtPremiumPercent, style: style)) }
                cells += notionalCells(base: row.base, venue: venue, style: style)
                cells += [
                    .init(venue.volumeConverted.map { DecimalFormatting.money($0, currency: currency) } ?? "-"),
                    aging.cell(Self.quote(venue), sourceDown: sourceDown.contains(venue.exchange), style: style),
                    .init(index == 0 ? note : ""),
                ]
                table.append(cells)
            }
        }
        // Warnings are never the column a narrow terminal loses: when NOTE does not fit, the
        // table goes without it and each coin's note is a line under it.
        var footnotes: [String] = []
        if let noteColumn = table.columns.indices.last, !notes.isEmpty,
            !table.visibleColumns(width: width).contains(noteColumn)
        {
            table.columns.removeLast()
            for index in table.rows.indices where table.rows[index].count > noteColumn {
                table.rows[index].removeLast()
            }
            footnotes = notes.map { TerminalText.escape("\($0.base): \($0.note)") }
        }
        let body =
            rows.isEmpty
            ? "no coin is listed on both a local and a global venue" : table.render(width: width, style: style)
        return (headerLines() + notionalHeaderLines() + [body] + footnotes + notionalProblemLines())
            .joined(separator: "\n")
    }

    private func percentCell(_ value: Decimal?, style: TextStyle) -> TextTable.Cell {
        guard let value else { return .init("-") }
        let text = DecimalFormatting.percent(value)
        if value > 0 { return .init(text, paint: { [style] in style.up($0) }) }
        if value < 0 { return .init(text, paint: { [style] in style.down($0) }) }
        return .init(text)
    }
}
