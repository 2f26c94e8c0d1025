import AggCore
import AggStore
import FoundationEssentials

/// How commands reach the local database. Only commands that need it open it, and only when
/// they run: `agg quote` and `agg exchanges` never create one.
enum LocalStore {
    /// Opens (creating when needed) the database the environment selects:
    /// `$AGG_HOME/agg.sqlite`, else `$XDG_DATA_HOME/agg/agg.sqlite`, else
    /// `~/.local/share/agg/agg.sqlite`.
    ///
    /// - Throws: `AggError.store` naming the file, which `CLI.run` turns into exit code 70.
    static func open(_ context: CLIContext) throws(AggError) -> Store {
        try Store.open(environment: context.environment)
    }

    /// The favorites of `kind` in an existing database, or none at all.
    ///
    /// For commands whose only use of the store is ordering (`agg quote`): when there is no
    /// database yet none is created, and when it cannot be read the command goes on unordered
    /// rather than failing, since favorites are a convenience.
    static func existingFavorites(kind: FavoriteKind, environment: [String: String]) -> Set<String> {
        guard let location = try? StoreLocation.resolve(environment: environment),
            FileManager.default.fileExists(atPath: location.path),
            let store = try? Store.open(path: location.path),
            let codes = try? store.favorites(kind: kind)
        else { return [] }
        return Set(codes)
    }
}
