import AggCore
import AggOptions
import FoundationEssentials

/// `agg events`: the market events `agg record --events` stored (listings, cautions, warnings,
/// notices, transfer flips).
package enum EventsCommand {
    static let since = Setting(
        Option<HistorySince>("since", value: "WHEN", help: "", parser: HistorySince.parser),
        help: "From this long ago (24h, 7d) or this UTC date or time (2026-12-01, 2026-12-01T08:00Z)",
        builtIn: .ago(seconds: 7 * 86_400), shown: \.description)
    static let kind = Option<[MarketEventKind]>(
        "kind", value: "KIND[,KIND...]",
        help: "Only these kinds of event (repeatable): "
            + MarketEventKind.allCases.map(\.rawValue).joined(separator: ", ")
            + ".",
        parser: EventKinds.parser, combine: +)

    package static let spec = CommandSpec(
        name: "events",
        summary: "The market events agg record --events stored: listings, cautions, warnings, notices, transfers.",
        arguments: "[SYMBOL...]",
        options: [
            CommonOptions.exchange, kind, since, Settings.store, CommonOptions.format, CommonOptions.color,
            CommonOptions.noColor, CommonOptions.palette,
        ],
        positionals: (0, nil),
        examples: [
            "agg events",
            "agg events --since 30d --kind listed,delisted -e upbit",
            "agg events XRP --kind caution_on --format csv",
        ],
        discussion: """
            Reads what agg record --events stored, from the database (see agg config path, and
            --store as for agg history); it asks no venue. One row an event, oldest first: when
            agg first observed it (UTC), the venue, the kind, the coin, the network (of a
            deposit or withdrawal event), and the venue's own words. Naming SYMBOLs keeps their
            events and leaves out the venue-wide notices. JSON is an array of
            {venue, kind, symbol, network, detail, firstObserved, venueTime}, times ISO-8601 UTC
            with milliseconds; CSV has the same columns. Nothing stored in the window is not an
            error: the table says so on stderr, JSON is [], CSV only its header.
            """
    )
}

/// The `--kind` values: comma-separated event kinds, any case.
enum EventKinds {
    static let parser = ValueParser<[MarketEventKind]>(
        expected: "one or more of: " + MarketEventKind.allCases.map(\.rawValue).joined(separator: ", ")
    ) { text in
        var kinds: [MarketEventKind] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = ASCIIText.trimmed(String(part)).lowercased()
            guard let kind = MarketEventKind(rawValue: name) else { return nil }
            kinds.append(kind)
        }
        return kinds
    }
}
