import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// How one output ages its quotes: every quote's age at the output's time (`now`, the injected
/// clock's), and whether it is shown stale.
///
/// A quote is stale when its age is strictly greater than `staleAfter` (`--stale-after`, 30 s
/// by default; a quote exactly at the limit is still fresh), or when its source is down
/// (`sourceDown`: a failed venue's cached quote standing in for it, or a quote whose stream is
/// down), whatever its age: a value is never shown as fresh when its source is not answering.
///
/// Every output writes the same three things after a quote's own fields: JSON
/// `"receivedAt"` (ISO-8601 UTC with milliseconds), `"ageSeconds"` (a decimal string with exactly
/// three places) and `"stale"`; CSV the columns `receivedAt`, `ageSeconds`, `stale`; a table an
/// AGE cell (`1.2s`, `45s`, `3m`, `2h`, `3d`), yellow from 10 s on a terminal, followed by a red
/// `stale` mark when stale.
package struct QuoteAging: Sendable {
    /// The time the ages are measured at.
    package var now: Timestamp
    /// A quote older than this is stale.
    package var staleAfter: Duration

    /// From this age on, a terminal shows the AGE cell in yellow.
    static let warnAfter: Duration = .seconds(10)

    package init(now: Timestamp, staleAfter: Duration = QuoteAge.defaultStaleAfter) {
        self.now = now
        self.staleAfter = staleAfter
    }

    /// `staleAfter` from whole seconds, as the `--stale-after` setting holds it.
    package init(now: Timestamp, staleAfterSeconds: Int64) {
        self.init(now: now, staleAfter: .seconds(staleAfterSeconds))
    }

    /// The quote's age at `now`, or `nil` when it has neither the venue's time nor a receive time.
    package func age(_ quote: Quote) -> QuoteAge? { quote.age(at: now) }

    /// Whether `quote` is shown stale: older than `staleAfter`, or its source is down.
    package func isStale(_ quote: Quote, sourceDown: Bool = false) -> Bool {
        sourceDown || (age(quote)?.isStale(after: staleAfter) ?? false)
    }

    /// `age` in seconds with exactly three decimals (`12.345`, `0.000`).
    package static func secondsText(_ age: QuoteAge) -> String {
        let milliseconds = age.milliseconds
        let fraction = String(milliseconds % 1000)
        return String(milliseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The AGE cell's text: tenths of a second under 10 s (`1.2s`), then whole seconds (`45s`),
    /// minutes (`3m`), hours (`2h`) and days (`3d`), each rounded down.
    package static func text(_ age: QuoteAge) -> String {
        let milliseconds = age.milliseconds
        switch milliseconds {
        case ..<10_000: return "\(milliseconds / 1000).\(milliseconds % 1000 / 100)s"
        case ..<60_000: return "\(milliseconds / 1000)s"
        case ..<3_600_000: return "\(milliseconds / 60_000)m"
        case ..<86_400_000: return "\(milliseconds / 3_600_000)h"
        default: return "\(milliseconds / 86_400_000)d"
        }
    }

    /// Writes `"receivedAt":…,"ageSeconds":…,"stale":…` (`null` for what the quote lacks).
    package func write(_ quote: Quote, sourceDown: Bool = false, to json: inout JSONWriter) {
        json.member("receivedAt", time: quote.receivedAt)
        json.member("ageSeconds", string: age(quote).map(Self.secondsText))
        json.member("stale", bool: isStale(quote, sourceDown: sourceDown))
    }

    /// The same three members, for an output built as a tree.
    package func members(_ quote: Quote, sourceDown: Bool = false) -> [JSONObject.Member] {
        [
            .init(key: "receivedAt", value: JSONOutput.time(quote.receivedAt)),
            .init(key: "ageSeconds", value: JSONOutput.string(age(quote).map(Self.secondsText))),
            .init(key: "stale", value: .bool(isStale(quote, sourceDown: sourceDown))),
        ]
    }

    /// The CSV columns these fields go in.
    package static let csvHeader = ["receivedAt", "ageSeconds", "stale"]

    /// The three CSV fields (empty for what the quote lacks).
    package func csvFields(_ quote: Quote, sourceDown: Bool = false) -> [String] {
        [
            quote.receivedAt?.description ?? "", age(quote).map(Self.secondsText) ?? "",
            isStale(quote, sourceDown: sourceDown) ? "true" : "false",
        ]
    }

    /// The title of the table column.
    package static let columnTitle = "AGE"

    /// The AGE cell: the age (`-` without one), then ` stale` when stale. On a terminal the age
    /// is yellow from 10 s on and the mark red.
    package func cell(_ quote: Quote, sourceDown: Bool = false, style: TextStyle) -> TextTable.Cell {
        let age = age(quote)
        let ageText = age.map(Self.text) ?? "-"
        let warns = age.map { Duration.milliseconds($0.milliseconds) >= Self.warnAfter } ?? false
        let stale = isStale(quote, sourceDown: sourceDown)
        let text = ageText + (stale ? " stale" : "")
        guard warns || stale else { return TextTable.Cell(text) }
        return TextTable.Cell(text) { [style] _ in
            (warns ? style.warning(ageText) : ageText) + (stale ? " " + style.alarm("stale") : "")
        }
    }
}
