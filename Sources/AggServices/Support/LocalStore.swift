import AggCore
import AggStore
import FoundationEssentials

/// How commands reach the local database. Only commands that need it open it, and only when
/// they run: `agg exchanges` never creates one.
package enum LocalStore {
    /// Opens (creating when needed) the database the environment selects:
    /// `$AGG_HOME/agg.sqlite`, else `$XDG_DATA_HOME/agg/agg.sqlite`, else
    /// `~/.local/share/agg/agg.sqlite`.
    ///
    /// - Throws: `AggError.store` naming the file, which `CLI.run` turns into exit code 70.
    package static func open(_ context: CLIContext) throws(AggError) -> Store {
        try Store.open(environment: context.environment)
    }

    /// The database for commands to which it is a convenience (`agg quote`'s favorites and quote
    /// cache, `agg compare`'s stored rates), or `nil` when it cannot be had.
    ///
    /// Such a command goes on without the database rather than failing, and says nothing about
    /// it: a corrupt file or an unusable folder changes nothing in its output. With `create`
    /// false no database is created where there is none (runs that only read, such as
    /// `--offline` ones).
    package static func bestEffort(environment: [String: String], create: Bool) -> Store? {
        guard let location = try? StoreLocation.resolve(environment: environment) else { return nil }
        if !create && !FileManager.default.fileExists(atPath: location.path) { return nil }
        return try? Store.open(location: location)
    }

    /// The favorites of `kind` in `store`, or none when there is no store or it cannot be read.
    package static func favorites(kind: FavoriteKind, in store: Store?) -> Set<String> {
        guard let store, let codes = try? store.favorites(kind: kind) else { return [] }
        return Set(codes)
    }
}
