import AggOptions
import AggStore

extension FavoritesReport {
    /// Both lists, empty: what a machine without a local database has.
    package static let none = FavoritesReport(
        listing: FavoriteKind.allCases.map { List(kind: $0, codes: []) }, notFavorites: [])

    /// The lists as `agg favorites list -f json` prints them, with the final newline.
    package func jsonLine() -> String {
        FavoritesRendering(listing: listing.map { ($0.kind, $0.codes) }).jsonLine()
    }

    /// Writes the lists in `format` (as `list` prints them, also after `add` and `remove`) and
    /// one stderr line per code that was not a favorite; exit 1 when there was one.
    package func write(format: OutputFormat, console: Console) -> ExitCode {
        Output.write(
            FavoritesRendering(listing: listing.map { ($0.kind, $0.codes) }), format: format, style: .plain,
            console: console)
        for code in notFavorites { console.printError("agg: \(code) is not a favorite") }
        return notFavorites.isEmpty ? .success : .sourceFailed
    }
}

extension FavoritesCommand {
    /// The word for a list in output: `currency` and `coin` (`FavoritesRendering`'s).
    static func label(_ kind: FavoriteKind) -> String {
        switch kind {
        case .currency: "currency"
        case .symbol: "coin"
        }
    }
}
