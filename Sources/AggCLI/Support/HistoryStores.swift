import AggCore
import AggStore

/// Which `HistoryStore` `agg record` and `agg history` use: `--store`, else the config file's
/// `store`, else the embedded SQLite database (the same file as the rest of agg's data).
enum HistoryStores {
    /// `--store URL|PATH`: a PostgreSQL URL or a SQLite path (see `HistoryStoreLocation`).
    static let option = Option<HistoryStoreLocation>(
        "store", value: "URL|PATH",
        help:
            "Where the history is: postgres://user@host:5432/db or sqlite:PATH (default: the config file's store, else agg's database).",
        parser: ValueParser(expected: "a PostgreSQL URL or a SQLite path") { text throws(AggError) in
            try HistoryStoreLocation(text)
        })

    /// Opens the store the arguments and the config file select.
    ///
    /// - Throws: `AggError.store` naming the file or server, which `CLI.run` turns into exit code 70.
    static func open(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError) -> any HistoryStore {
        let location = arguments[option] ?? context.configuration.store ?? .sqlite(path: nil)
        return try await location.open { path throws(AggError) -> any HistoryStore in
            guard let path else { return try LocalStore.open(context) }
            return try Store.open(path: path)
        }
    }
}
