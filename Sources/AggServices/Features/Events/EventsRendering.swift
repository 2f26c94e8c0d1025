import AggCore
import AggJSON
import AggOptions

/// `agg events` output (and `/v1/events`'s body). Venue text (the detail) is data: tables and
/// CSV show its control characters escaped (`TerminalText`), JSON as `\uXXXX`.
///
/// - Table: `FIRST OBSERVED (UTC)`, `VENUE`, `KIND`, `SYMBOL`, `NETWORK`, `DETAIL`.
/// - JSON: `[{"venue","kind","symbol","network","detail","firstObserved","venueTime"}]`, times
///   ISO-8601 UTC with milliseconds, `null` when absent.
/// - CSV: `first_observed,venue,kind,symbol,network,detail,venue_time`.
package struct EventsRendering: Rendering {
    var report: EventsService.Report

    package init(report: EventsService.Report) {
        self.report = report
    }

    package var emptyTableNotice: String? {
        guard report.events.isEmpty else { return nil }
        return "agg: no market events since \(TableTime.text(report.query.since)) UTC (agg record --events stores them)"
    }

    package func table(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("FIRST OBSERVED (UTC)"), .init("VENUE"), .init("KIND"), .init("SYMBOL"),
            .init("NETWORK", priority: 1), .init("DETAIL", priority: 2),
        ])
        for event in report.events {
            table.append(texts: [
                TableTime.text(event.firstObserved), event.venue, event.kind.rawValue, event.symbol ?? "-",
                event.network ?? "-", event.detail,
            ])
        }
        return table.render(width: width, style: style)
    }

    package func json() -> JSONValue {
        .array(report.events.map(Self.json))
    }

    /// One event as JSON, the row `agg events`, `/v1/events` and the SSE `event` share.
    package static func json(_ event: MarketEvent) -> JSONValue {
        .object(
            JSONObject([
                .init(key: "venue", value: .string(event.venue)),
                .init(key: "kind", value: .string(event.kind.rawValue)),
                .init(key: "symbol", value: JSONOutput.string(event.symbol)),
                .init(key: "network", value: JSONOutput.string(event.network)),
                .init(key: "detail", value: .string(event.detail)),
                .init(key: "firstObserved", value: JSONOutput.time(event.firstObserved)),
                .init(key: "venueTime", value: JSONOutput.time(event.venueTime)),
            ]))
    }

    package func csv() -> String {
        var writer = CSVWriter(header: ["first_observed", "venue", "kind", "symbol", "network", "detail", "venue_time"])
        for event in report.events {
            writer.field(event.firstObserved.description)
            writer.field(event.venue)
            writer.field(event.kind.rawValue)
            writer.field(event.symbol ?? "")
            writer.field(event.network ?? "")
            writer.field(event.detail)
            writer.field(event.venueTime?.description ?? "")
            writer.endRow()
        }
        return writer.text
    }
}
