import AggCore
import AggJSON

/// How every front end reports an entry of a bulk answer that was skipped (rule 1 of issue 20:
/// one bad entry costs that entry): `AGG_DEBUG` prints `description`, JSON gets `jsonError`,
/// the same words `agg quote` uses for the entry's failed row.
extension SkippedEntry {
    /// Whether the entry may be about one of `coins` (every entry when `coins` is empty): an
    /// entry whose name maps to no market cannot be a coin anyone asked for.
    func concerns(_ coins: Set<String>) -> Bool {
        coins.isEmpty || market.map { coins.contains($0.base) } ?? false
    }

    /// The JSON `errors` entry: the venue, the market (the entry's name when it maps to none),
    /// and the decoding failure with its JSON path, as `agg quote -f json` writes it.
    var jsonError: JSONValue {
        JSONOutput.error(error, exchange: venue, symbol: market?.description ?? entry)
    }
}
