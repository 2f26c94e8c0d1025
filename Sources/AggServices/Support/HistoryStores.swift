import AggCore
import AggOptions
import AggStore

/// Which `HistoryStore` `agg record` and `agg history` use: `--store`, else the config file's
/// `store`, else the embedded SQLite database (the same file as the rest of agg's data).
package enum HistoryStores {
    /// What every store `open` answers holds: the recorded history and the market events.
    package typealias RecordingStore = HistoryStore & EventStore

    /// The warning for a password in `--store`: any user of the machine can read a command line
    /// (`ps`). The password itself is never printed.
    static let passwordWarning =
        "--store holds a password, which every user of this machine can read (ps); "
        + "give it in PGPASSWORD, ~/.pgpass or the config file's store instead"

    /// Opens the store the arguments and the config file select.
    ///
    /// - Throws: `AggError.store` naming the file or server, which `CLI.run` turns into exit code 70.
    ///
    /// - Parameter forReading: the command only reads (`agg history`): a PostgreSQL store is
    ///   not migrated, so that a role that may only `SELECT` can read it.
    package static func open(_ arguments: ParsedArguments, context: CLIContext, forReading: Bool = false)
        async throws(AggError) -> any RecordingStore
    {
        if case .postgres(let url)? = arguments.flag(Settings.store), url.holdsPassword {
            context.console.printError("agg: warning: " + passwordWarning)
        }
        let location = context.settings(arguments).value(Settings.store)
        return try await location.open(forReading: forReading) { path throws(AggError) -> any RecordingStore in
            guard let path else { return try LocalStore.open(context) }
            return try Store.open(path: path)
        }
    }
}
