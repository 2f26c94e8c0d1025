import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `rates --source all` in the three formats: one row per source, set against the median of the
/// FX sources.
package struct RateSourcesRendering: Rendering {
    var result: RateSourcesService.Result
    /// FX attributions by source id.
    var attributions: [String: String]

    private var sources: RateSources { result.sources }

    private static func percentText(_ value: Decimal?) -> String? {
        value.map { DecimalFormatting.fixed($0, places: 2, grouping: false) }
    }

    private func ageSeconds(_ asOf: Timestamp?) -> Int64? {
        asOf.map { (result.asOf.millisecondsSince1970 - $0.millisecondsSince1970) / 1000 }
    }

    package func json() -> JSONValue {
        [
            "base": .string(sources.base), "quote": .string(sources.quote),
            "sources": .array(
                sources.entries.map { entry in
                    [
                        "source": .string(entry.source), "kind": .string(entry.kind.rawValue),
                        "rate": JSONOutput.decimal(entry.rate), "asOf": JSONOutput.time(entry.asOf),
                        "deviationPercent": JSONOutput.string(Self.percentText(entry.deviationPercent)),
                        "attribution": JSONOutput.string(attributions[entry.source]),
                    ]
                }),
            "median": JSONOutput.decimal(sources.median),
            "errors": .array(result.errors.map { JSONOutput.error($0, exchange: nil, symbol: nil) }),
        ]
    }

    static let csvHeader = ["source", "kind", "base", "quote", "rate", "asOf", "deviationPercent"]

    package func csv() -> String {
        CSVWriter.render(
            header: Self.csvHeader,
            rows: sources.entries.map { entry in
                [
                    entry.source, entry.kind.rawValue, sources.base, sources.quote, entry.rate.description,
                    entry.asOf?.description ?? "", Self.percentText(entry.deviationPercent) ?? "",
                ]
            })
    }

    package func table(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("SOURCE"), .init("KIND"), .init("\(sources.base)→\(sources.quote)", .right),
            .init("AS OF (UTC)", priority: 2), .init("AGE", .right, priority: 1), .init("VS MEDIAN", .right),
        ])
        for entry in sources.entries {
            table.append(texts: [
                entry.source, entry.kind.rawValue, DecimalFormatting.price(entry.rate, currency: sources.quote),
                entry.asOf.map { TableTime.text($0) } ?? "-",
                ageSeconds(entry.asOf).map { DurationText.ago(seconds: $0) } ?? "-",
                entry.deviationPercent.map { DecimalFormatting.percent($0) } ?? "-",
            ])
        }
        var lines = [table.render(width: width, style: style)]
        let fxCount = sources.entries.filter { $0.kind == .fx }.count
        if let median = sources.median {
            lines.append(
                "median of \(fxCount) FX source\(fxCount == 1 ? "" : "s"): "
                    + DecimalFormatting.price(median, currency: sources.quote))
        }
        let credits = sources.entries.compactMap { attributions[$0.source] }
        if !credits.isEmpty { lines.append(credits.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }

    package var emptyTableNotice: String? {
        sources.entries.isEmpty ? "agg: no source gave a \(sources.base)→\(sources.quote) rate" : nil
    }
}
