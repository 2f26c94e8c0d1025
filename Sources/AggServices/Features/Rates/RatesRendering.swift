import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg rates` output in the three formats.
struct RatesRendering: Rendering {
    var report: RatesReport

    /// `{"source","attribution","base","asOf","nextUpdate","previousAsOf","rates":[{"code","rate","previous","change","trend"}]}`,
    /// times in ISO-8601 UTC to the second, decimals as exact strings; `trend` is `null` when
    /// there is nothing to compare with. `attribution` is the credit the source asks for
    /// wherever its rates are shown (`null` when it asks none).
    func json() -> JSONValue {
        let table = report.table
        return [
            "source": .string(table.source),
            "attribution": JSONOutput.string(report.source.attribution),
            "base": .string(table.base),
            "asOf": .string(table.asOf.iso8601Seconds),
            "nextUpdate": Self.time(table.nextUpdate),
            "previousAsOf": Self.time(report.previousAsOf),
            "rates": .array(
                report.changes.map { change in
                    [
                        "code": .string(change.code),
                        "rate": JSONOutput.decimal(change.rate),
                        "previous": JSONOutput.decimal(change.previous),
                        "change": JSONOutput.decimal(change.change),
                        "trend": JSONOutput.string(change.trend?.rawValue),
                    ]
                }),
        ]
    }

    private static func time(_ timestamp: Timestamp?) -> JSONValue {
        timestamp.map { .string($0.iso8601Seconds) } ?? .null
    }

    static let csvHeader = ["base", "code", "rate", "previous", "change", "trend"]

    func csv() -> String {
        CSVWriter.render(
            header: Self.csvHeader,
            rows: report.changes.map { change in
                [
                    report.table.base, change.code, change.rate.description, change.previous?.description ?? "",
                    change.change?.description ?? "", change.trend?.rawValue ?? "",
                ]
            })
    }

    /// The arrow of a trend; flat (or no trend) is a blank of the same width, so the columns
    /// never shift.
    static func arrow(_ trend: RateTrend?) -> String {
        switch trend {
        case .up: "▲"
        case .down: "▼"
        case .flat, nil: " "
        }
    }

    /// A change with its sign: `+2.076148`, `-14.161916`, `0`; `-` when there is nothing to compare.
    static func changeText(_ change: Decimal?) -> String {
        guard let change else { return "-" }
        return (change > 0 ? "+" : "") + DecimalFormatting.grouped(change)
    }

    func table(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("CODE"), .init("RATE", .right), .init(""), .init("CHANGE", .right, priority: 1),
        ])
        for change in report.changes {
            let paint: @Sendable (String) -> String = { [style] text in
                switch change.trend {
                case .up: style.up(text)
                case .down: style.down(text)
                case .flat, nil: text
                }
            }
            table.append([
                .init(change.code), .init(DecimalFormatting.grouped(change.rate)),
                .init(Self.arrow(change.trend), paint: paint), .init(Self.changeText(change.change), paint: paint),
            ])
        }
        return table.render(width: width, style: style) + "\n\n" + footer().joined(separator: "\n")
    }

    /// When the rates are from, what they are compared with, and who provides them.
    func footer() -> [String] {
        let rates = report.table
        var lines: [String] = []
        lines.append(
            "\(rates.base) base, as of \(Self.utc(rates.asOf))"
                + (rates.nextUpdate.map { "; next update \(Self.utc($0))" } ?? "") + ".")
        if let previous = report.previousAsOf {
            lines.append(
                "Compared with \(Self.utc(previous)); ▲ ▼ mark changes of more than \(report.threshold) either way.")
        } else {
            lines.append("No earlier snapshot to compare with yet; arrows appear once the next update is stored.")
        }
        lines.append(report.source.attribution ?? "Source: \(report.source.displayName)")
        return lines
    }

    private static func utc(_ timestamp: Timestamp) -> String {
        TableTime.text(timestamp) + " UTC"
    }
}
