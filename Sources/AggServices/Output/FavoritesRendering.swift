import AggJSON
import AggOptions
import AggStore

/// `agg favorites` output: each list's codes.
struct FavoritesRendering: Rendering {
    var listing: [(kind: FavoriteKind, codes: [String])]

    /// `{"currencies":[...],"coins":[...]}`.
    func json() -> JSONValue {
        JSONValue.object(
            JSONObject(
                listing.map { entry in
                    JSONObject.Member(
                        key: entry.kind == .currency ? "currencies" : "coins",
                        value: .array(entry.codes.map { .string($0) }))
                }))
    }

    /// `kind,code` rows.
    func csv() -> String {
        CSVWriter.render(
            header: ["kind", "code"],
            rows: listing.flatMap { entry in entry.codes.map { [FavoritesCommand.label(entry.kind), $0] } })
    }

    /// A plain table that is never cut: a few short codes.
    func table(width: Int, style: TextStyle) -> String {
        guard listing.contains(where: { !$0.codes.isEmpty }) else {
            return "No favorites yet; add some with: agg favorites add KRW BTC"
        }
        var table = TextTable(columns: [.init("KIND"), .init("CODES")])
        for entry in listing where !entry.codes.isEmpty {
            table.append(texts: [FavoritesCommand.label(entry.kind), entry.codes.joined(separator: " ")])
        }
        return table.render(width: Int.max, style: .plain)
    }
}
