import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg history` output.
///
/// - Table: the statistics of each series, then the most recent points (`recentRows`), or with
///   `--chart` a braille chart of each series in their place.
/// - JSON: `{"symbol","kind","since","until","series":[{"exchange","market"|"basis",
///   "statistics":{"count","min","max","mean","latest","latestTime","percentile","zScore"},
///   "points":[{"time","value"}]}]}`; decimals are exact strings, times ISO-8601 UTC. A price
///   point adds `"receivedAt"` (when agg received it) and `"ageSeconds"` (how old it was when
///   recorded, three decimals: `PricePoint.age`), both `null` for rows recorded before agg kept
///   them.
/// - CSV: every point, `time,exchange,market,last,receivedAt,ageSeconds` (empty cells for old
///   rows) or `time,exchange,basis,premium`, oldest first.
/// - Table: the recent prices have an AGE column (`1.2s`, `45s`, `3m`; `-` for old rows).
///
/// Premiums are computed by the recorder from a whole board, not received: they have no age.
package struct HistoryRendering: Rendering {
    var report: HistoryService.Report
    var chart: Bool

    /// Points the table shows under the statistics.
    static let recentRows = 20
    /// Lines of each chart's plot.
    static let chartHeight = 8

    private var labelTitle: String { report.premium ? "basis" : "market" }

    package var emptyTableNotice: String? {
        guard report.series.isEmpty else { return nil }
        return "agg: no recorded \(report.premium ? "premiums" : "prices") of \(report.symbol) since "
            + "\(TableTime.text(report.since)) UTC (agg record stores them)"
    }

    package func table(width: Int, style: TextStyle) -> String {
        let points = report.series.reduce(0) { $0 + $1.points.count }
        var blocks = [
            style.dim(
                "\(report.symbol) \(report.premium ? "premium (%)" : "price") since \(TableTime.text(report.since)) UTC · "
                    + "\(points) point\(points == 1 ? "" : "s") · PCTL: share of the window at or below LATEST · Z: z-score of LATEST"
            ),
            statisticsTable(width: width, style: style),
        ]
        if chart {
            let chartWidth = width == Console.unlimitedWidth ? Console.defaultWidth : width
            for series in report.series {
                blocks.append("\n" + style.dim("\(series.exchange) \(series.label)"))
                blocks += LineChart.render(
                    series.points.map(\.value), width: chartWidth, height: Self.chartHeight,
                    label: { value(text: $0) },
                    xLabels: series.points.first.flatMap { first in
                        series.points.last.map { (TableTime.text(first.time), TableTime.text($0.time)) }
                    })
            }
        } else {
            blocks.append(recentTable(width: width, style: style, total: points))
        }
        return blocks.joined(separator: "\n")
    }

    private func value(text value: Decimal) -> String {
        report.premium ? DecimalFormatting.percent(value) : DecimalFormatting.grouped(value)
    }

    private func statisticsTable(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("VENUE"), .init(labelTitle.uppercased()), .init("POINTS", .right, priority: 2),
            .init("MIN", .right, priority: 3), .init("MAX", .right, priority: 3), .init("MEAN", .right, priority: 4),
            .init("LATEST", .right), .init("PCTL", .right, priority: 1), .init("Z", .right, priority: 1),
        ])
        for series in report.series {
            let statistics = series.statistics
            table.append(texts: [
                series.exchange, series.label, String(statistics.count),
                value(text: statistics.minimum), value(text: statistics.maximum), value(text: statistics.mean),
                value(text: statistics.latest), DecimalText.format(statistics.percentile),
                statistics.zScore.map { DecimalFormatting.fixed($0, places: SeriesStatistics.zScorePlaces) } ?? "-",
            ])
        }
        return table.render(width: width, style: style)
    }

    private func recentTable(width: Int, style: TextStyle, total: Int) -> String {
        let rows = allRows().suffix(Self.recentRows)
        var columns: [TextTable.Column] = [
            .init("TIME (UTC)"), .init("VENUE"), .init(labelTitle.uppercased()),
            .init(report.premium ? "PREMIUM" : "LAST", .right),
        ]
        if !report.premium { columns.append(.init("AGE", .right, priority: 1)) }
        var table = TextTable(columns: columns)
        for row in rows {
            var texts = [TableTime.text(row.point.time), row.exchange, row.label, value(text: row.point.value)]
            if !report.premium { texts.append(row.point.age.map(QuoteAging.text) ?? "-") }
            table.append(texts: texts)
        }
        let caption =
            total > rows.count
            ? "\nthe last \(rows.count) of \(total) points; --format csv or json for all" : ""
        return "\n" + table.render(width: width, style: style) + (caption.isEmpty ? "" : style.dim(caption))
    }

    /// Every point of every series, oldest first, then by venue and label.
    private func allRows() -> [(exchange: String, label: String, point: HistoryService.Point)] {
        var rows: [(exchange: String, label: String, point: HistoryService.Point)] = []
        for series in report.series {
            for point in series.points { rows.append((series.exchange, series.label, point)) }
        }
        // Stable: the series are already by venue and label.
        return rows.enumerated().sorted { left, right in
            left.element.point.time != right.element.point.time
                ? left.element.point.time < right.element.point.time : left.offset < right.offset
        }.map(\.element)
    }

    package func json() -> JSONValue {
        [
            "symbol": .string(report.symbol),
            "kind": .string(report.premium ? "premium" : "price"),
            "since": JSONOutput.time(report.since),
            "until": JSONOutput.time(report.until),
            "series": .array(
                report.series.map { series in
                    let statistics = series.statistics
                    return .object(
                        JSONObject([
                            .init(key: "exchange", value: .string(series.exchange)),
                            .init(key: labelTitle, value: .string(series.label)),
                            .init(
                                key: "statistics",
                                value: [
                                    "count": .number(String(statistics.count)),
                                    "min": JSONOutput.decimal(statistics.minimum),
                                    "max": JSONOutput.decimal(statistics.maximum),
                                    "mean": JSONOutput.decimal(statistics.mean),
                                    "latest": JSONOutput.decimal(statistics.latest),
                                    "latestTime": JSONOutput.time(series.points.last?.time),
                                    "percentile": JSONOutput.decimal(statistics.percentile),
                                    "zScore": JSONOutput.decimal(statistics.zScore),
                                ]),
                            .init(
                                key: "points",
                                value: .array(
                                    series.points.map { point in pointJSON(point) })),
                        ]))
                }),
        ]
    }

    /// One point: its time and value, and for a price its receive time and age when recorded.
    private func pointJSON(_ point: HistoryService.Point) -> JSONValue {
        guard !report.premium else {
            return ["time": JSONOutput.time(point.time), "value": JSONOutput.decimal(point.value)]
        }
        return .object(
            JSONObject([
                .init(key: "time", value: JSONOutput.time(point.time)),
                .init(key: "value", value: JSONOutput.decimal(point.value)),
                .init(key: "receivedAt", value: JSONOutput.time(point.receivedAt)),
                .init(key: "ageSeconds", value: JSONOutput.string(point.age.map(QuoteAging.secondsText))),
            ]))
    }

    package func csv() -> String {
        var header = ["time", "exchange", labelTitle, report.premium ? "premium" : "last"]
        if !report.premium { header += ["receivedAt", "ageSeconds"] }
        var writer = CSVWriter(header: header)
        for row in allRows() {
            writer.field(row.point.time.description)
            writer.field(row.exchange)
            writer.field(row.label)
            writer.field(row.point.value)
            if !report.premium {
                writer.field(row.point.receivedAt?.description ?? "")
                writer.field(row.point.age.map(QuoteAging.secondsText) ?? "")
            }
            writer.endRow()
        }
        return writer.text
    }

    package init(report: HistoryService.Report, chart: Bool) {
        self.report = report
        self.chart = chart
    }
}
