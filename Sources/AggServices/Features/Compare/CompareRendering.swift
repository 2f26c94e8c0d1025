import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `compare` output in the three formats.
struct CompareRendering: Rendering {
    var report: CompareReport
    /// Each venue's premium among those `agg record` stored over the last seven days; the
    /// column and the JSON field `premiumPercentile7d` appear only when there are any.
    var percentiles: PremiumPercentiles = .none
    /// Each venue's price's age and stale mark, at the time of the output.
    var aging: QuoteAging

    /// `report` without percentiles (set `percentiles` when history exists).
    init(report: CompareReport, aging: QuoteAging) {
        self.report = report
        self.aging = aging
    }

    /// The quote of outcome number `index`, when its venue answered.
    private func quote(_ index: Int) -> Quote? {
        report.quotes.indices.contains(index) ? report.quotes[index] : nil
    }

    private var comparison: PriceComparison { report.comparison }
    private var currency: String { report.plan.currency }

    /// A premium as a JSON or CSV value: exactly two decimals (`-0.02`, `1.00`).
    private static func premiumText(_ value: Decimal) -> String {
        DecimalFormatting.fixed(value, places: 2, grouping: false)
    }

    /// Rate times are whole seconds: providers publish them so.
    private static func asOfText(_ value: Timestamp?) -> JSONValue {
        value.map { .string($0.iso8601Seconds) } ?? .null
    }

    func json() -> JSONValue {
        let fx: [JSONValue] = comparison.rateLines.map { line in
            [
                "from": .string(line.from), "to": .string(line.to), "rate": JSONOutput.decimal(line.rate),
                "source": .string(line.source), "asOf": Self.asOfText(line.asOf),
                "attribution": JSONOutput.string(report.plan.attributions[line.source]),
            ]
        }
        let reference: JSONValue =
            comparison.reference.map { ["method": .string($0.method), "price": JSONOutput.decimal($0.price)] }
            ?? .null
        var venues: [JSONValue] = []
        var errors: [JSONValue] = []
        for (index, (venue, outcome)) in report.outcomes.enumerated() {
            switch outcome {
            case .compared(let row):
                var members: [JSONObject.Member] = [
                    .init(key: "exchange", value: .string(venue.venue)),
                    .init(key: "symbol", value: .string(row.price.market.description)),
                    .init(key: "last", value: JSONOutput.decimal(row.price.last)),
                    .init(key: "rate", value: JSONOutput.decimal(row.rate)),
                    .init(key: "lastConverted", value: JSONOutput.decimal(row.converted)),
                    .init(key: "premiumPercent", value: JSONOutput.string(row.premiumPercent.map(Self.premiumText))),
                ]
                if !percentiles.isEmpty {
                    members.append(
                        .init(
                            key: "premiumPercentile7d",
                            value: JSONOutput.decimal(
                                percentiles.percentile(exchange: venue.venue, symbol: report.plan.coin))))
                }
                if let quote = quote(index) { members += aging.members(quote) }
                venues.append(.object(JSONObject(members)))
                if row.converted == nil {
                    errors.append([
                        "exchange": .string(venue.venue), "symbol": .string(venue.market.description),
                        "kind": "conversion", "code": .null, "message": .string(report.conversionFailure(row)),
                    ])
                }
            case .notListed(let error), .failed(let error):
                errors.append(Self.error(error, exchange: venue.venue, symbol: venue.market.description))
            }
        }
        if let failure = report.referenceFailure {
            errors.append([
                "exchange": .null, "symbol": .null, "kind": "conversion", "code": .null, "message": .string(failure),
            ])
        }
        for (source, error) in report.fxFailures {
            errors.append(Self.error(error, exchange: source, symbol: nil))
        }
        return [
            "base": .string(report.plan.coin), "currency": .string(currency), "fx": .array(fx),
            "reference": reference, "venues": .array(venues), "errors": .array(errors),
        ]
    }

    /// `{"exchange","symbol","kind","code","message"}`: every compare error names its market, or
    /// has `"symbol":null` when it is about no market (an FX source, the reference).
    private static func error(_ error: AggError, exchange: String, symbol: String?) -> JSONValue {
        [
            "exchange": .string(exchange), "symbol": JSONOutput.string(symbol), "kind": .string(error.kind),
            "code": JSONOutput.string(error.code), "message": .string(error.message),
        ]
    }

    static let csvHeader =
        [
            "exchange", "symbol", "last", "currency", "rate", "lastConverted", "premiumPercent",
        ] + QuoteAging.csvHeader

    func csv() -> String {
        CSVWriter.render(
            header: Self.csvHeader,
            rows: report.outcomes.enumerated().compactMap { index, element in
                guard case .compared(let row) = element.outcome else { return nil }
                return [
                    row.price.exchange, row.price.market.description, row.price.last.description, currency,
                    row.rate?.description ?? "", row.converted?.description ?? "",
                    row.premiumPercent.map(Self.premiumText) ?? "",
                ] + (quote(index).map { aging.csvFields($0) } ?? ["", "", ""])
            })
    }

    func table(width: Int, style: TextStyle) -> String {
        let places = DecimalFormatting.minorUnits(of: currency)
        // Without a reference there is no premium: the column is left out, not filled with dashes.
        let premiums = comparison.reference != nil
        var table = TextTable(
            columns: [
                .init("VENUE"), .init("MARKET", priority: 3), .init("LAST", .right, priority: 2),
                .init("RATE", .right, priority: 1), .init("IN \(currency)", .right),
            ] + (premiums ? [.init("PREMIUM", .right)] : [])
                + (percentiles.isEmpty || !premiums ? [] : [.init("7D PCTL", .right, priority: 1)])
                + [.init(QuoteAging.columnTitle, .right, priority: 4)])
        for (index, (venue, outcome)) in report.outcomes.enumerated() {
            switch outcome {
            case .compared(let row):
                let premium = row.premiumPercent
                let arrow = premium.map { $0 > 0 ? "▲ " : ($0 < 0 ? "▼ " : "") } ?? ""
                table.append(
                    [
                        .init(venue.venue), .init(row.price.market.description),
                        .init(DecimalFormatting.grouped(row.price.last)),
                        .init(row.rate.map(DecimalFormatting.grouped) ?? "-"),
                        row.converted.map { .init(DecimalFormatting.fixed($0, places: places)) }
                            ?? .init("no rate", paint: { [style] in style.warning($0) }),
                    ]
                        + (premiums
                            ? [
                                .init(
                                    premium.map { arrow + DecimalFormatting.percent($0) } ?? "-",
                                    paint: { [style] in style.signed($0, premium) })
                            ] : [])
                        + (percentiles.isEmpty || !premiums
                            ? []
                            : [
                                .init(
                                    percentiles.percentile(exchange: venue.venue, symbol: report.plan.coin).map {
                                        DecimalText.format($0)
                                    } ?? "-")
                            ]))
                let ageCell = quote(index).map { aging.cell($0, style: style) } ?? TextTable.Cell("-")
                table.rows[table.rows.count - 1].append(ageCell)
            case .notListed:
                table.append([
                    .init(venue.venue), .init(venue.market.description),
                    .init("not listed", paint: { [style] in style.dim($0) }),
                ])
            case .failed(let error):
                table.append(
                    [
                        .init(venue.venue), .init(venue.market.description),
                        .init("failed", paint: { [style] in style.warning($0) }), .init(""),
                    ] + (premiums ? [.init("")] : []) + [.init(error.kind)])
            }
        }
        var lines: [String] = []
        if let reference = comparison.reference {
            lines.append(
                "Reference: \(DecimalFormatting.fixed(reference.price, places: places)) \(currency), \(reference.method)"
                    + (reference.exchanges.isEmpty ? "" : " (\(reference.exchanges.joined(separator: ", ")))"))
        }
        for line in comparison.rateLines {
            var text = "FX: \(line.from)→\(line.to) \(DecimalFormatting.grouped(line.rate))"
            if line.source == PriceComparison.assumedSource {
                text += " \(line.source)" + (line.from == "USDT" ? " (--usdt assume)" : "")
            } else {
                text += " from \(line.source)"
                if let attribution = report.plan.attributions[line.source] { text += " (\(attribution))" }
                if let asOf = line.asOf { text += ", as of \(TableTime.text(asOf)) UTC" }
                if line.from == "USDT" { text += " (--usdt market)" }
            }
            lines.append(text)
        }
        let rendered = table.render(width: width, style: style)
        return lines.isEmpty ? rendered : ([rendered, ""] + lines).joined(separator: "\n")
    }
}

/// Several coins' comparisons: one block each in a table, `{"comparisons":[...]}` in JSON, one
/// CSV table.
struct CompareRenderings: Rendering {
    var renderings: [CompareRendering]

    func json() -> JSONValue {
        ["comparisons": .array(renderings.map { $0.json() })]
    }

    func csv() -> String {
        let lines = renderings.flatMap { $0.csv().split(separator: "\n").dropFirst().map(String.init) }
        return ([CompareRendering.csvHeader.joined(separator: ",")] + lines).joined(separator: "\n")
    }

    func table(width: Int, style: TextStyle) -> String {
        renderings.map { rendering in
            "\(rendering.report.plan.coin)\n" + rendering.table(width: width, style: style)
        }.joined(separator: "\n\n")
    }
}
