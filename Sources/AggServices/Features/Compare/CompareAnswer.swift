import AggCore
import AggJSON
import AggOptions

/// What `agg compare` and `/v1/compare` answer: one report a coin, each with its venues'
/// premium percentiles when history exists. Rendered as one comparison for one coin, as
/// `{"comparisons":[...]}` (one block each, one CSV table) for several.
package struct CompareAnswer: Sendable, Rendering {
    var renderings: [CompareRendering]

    var reports: [CompareReport] { renderings.map(\.report) }

    package func json() -> JSONValue {
        if let single = renderings.first, renderings.count == 1 { return single.json() }
        return CompareRenderings(renderings: renderings).json()
    }

    package func csv() -> String {
        if let single = renderings.first, renderings.count == 1 { return single.csv() }
        return CompareRenderings(renderings: renderings).csv()
    }

    package func table(width: Int, style: TextStyle) -> String {
        if let single = renderings.first, renderings.count == 1 { return single.table(width: width, style: style) }
        return CompareRenderings(renderings: renderings).table(width: width, style: style)
    }

    /// One line a failure for standard error (`agg: ` included), coin by coin: what failed, and
    /// a coin no venue lists.
    package var problemLines: [String] {
        reports.flatMap { report in
            report.problemLines.map { "agg: " + $0 }
                + (report.comparison.rows.isEmpty && !report.hasFailures
                    ? ["agg: no venue lists \(report.plan.coin)"] : [])
        }
    }

    /// Whether a venue or a conversion failed, or no venue lists a coin (exit code 1).
    package var failed: Bool {
        reports.contains { $0.hasFailures || $0.comparison.rows.isEmpty }
    }
}
