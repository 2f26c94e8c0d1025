import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg search` output: the matching markets with their last prices.
package struct SearchRendering: Rendering {
    var query: String
    var rows: [(listing: MarketListing, last: Decimal?)]
    var failures: [SearchService.VenueFailure]
    /// List entries that were skipped: each is one more `errors` entry in JSON.
    var skipped: [SkippedEntry] = []

    /// A table with no match is one line on stderr instead.
    package var emptyTableNotice: String? { rows.isEmpty ? "agg: no market matches '\(query)'" : nil }

    /// `{"query","results":[...],"errors":[...]}`; each error is shaped as in `quote`, a skipped
    /// list entry's too.
    package func json() -> JSONValue {
        [
            "query": .string(query),
            "results": .array(
                rows.map { listing, last in
                    [
                        "exchange": .string(listing.exchange),
                        "symbol": .string(listing.market.description),
                        "base": .string(listing.market.base),
                        "quote": .string(listing.market.quote),
                        "nameKo": JSONOutput.string(listing.koreanName),
                        "nameEn": JSONOutput.string(listing.englishName),
                        "last": JSONOutput.decimal(last),
                    ]
                }),
            "errors": .array(failures.map(\.json) + skipped.map(\.jsonError)),
        ]
    }

    package func csv() -> String {
        CSVWriter.render(
            header: ["exchange", "symbol", "base", "quote", "nameKo", "nameEn", "last"],
            rows: rows.map { listing, last in
                [
                    listing.exchange, listing.market.description, listing.market.base, listing.market.quote,
                    listing.koreanName ?? "", listing.englishName ?? "", last?.description ?? "",
                ]
            })
    }

    /// Name columns appear only when some result has a name.
    package func table(width: Int, style: TextStyle) -> String {
        let korean = rows.contains { $0.0.koreanName != nil }
        let english = rows.contains { $0.0.englishName != nil }
        var columns: [TextTable.Column] = [.init("EXCHANGE"), .init("MARKET")]
        if korean { columns.append(.init("NAME (KO)", priority: 2)) }
        if english { columns.append(.init("NAME (EN)", priority: 1)) }
        columns.append(.init("LAST", .right))
        var table = TextTable(columns: columns)
        for (listing, last) in rows {
            var texts = [listing.exchange, listing.market.description]
            if korean { texts.append(listing.koreanName ?? "") }
            if english { texts.append(listing.englishName ?? "") }
            texts.append(last.map { DecimalFormatting.price($0, currency: listing.market.quote) } ?? "-")
            table.append(texts: texts)
        }
        return table.render(width: width, style: style)
    }

    package init(
        query: String, rows: [(listing: MarketListing, last: Decimal?)], failures: [SearchService.VenueFailure],
        skipped: [SkippedEntry] = []
    ) {
        self.query = query
        self.rows = rows
        self.failures = failures
        self.skipped = skipped
    }
}
