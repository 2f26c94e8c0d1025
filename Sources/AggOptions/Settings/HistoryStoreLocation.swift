import AggCore
import AggPostgres

/// Where the history goes, as `--store` or the config file's `store` names it.
///
/// - no value: the embedded SQLite store at its default path;
/// - `sqlite:PATH`, or a plain path: the SQLite store in that file;
/// - `postgres://user[:password]@host[:port]/database` (or `postgresql://`): a PostgreSQL
///   database, which several recorders can share.
package enum HistoryStoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// The embedded SQLite store in the file at `path`, or at the default path when `nil`.
    case sqlite(path: String?)
    /// A PostgreSQL database.
    case postgres(PostgresURL)

    /// Reads a store URL or path; `nil` means the default.
    ///
    /// - Throws: `AggError.usage` for an empty value, a `sqlite:` without a path, a URL of
    ///   another scheme (`mysql://...`), or a PostgreSQL URL that `PostgresURL` refuses. The
    ///   message never shows a password.
    package init(_ text: String?) throws(AggError) {
        guard let text else {
            self = .sqlite(path: nil)
            return
        }
        if PostgresURL.isPostgres(text) {
            self = .postgres(try PostgresURL(text))
            return
        }
        let path = text.hasPrefix("sqlite:") ? String(text.dropFirst("sqlite:".count)) : text
        guard !path.isEmpty else {
            throw .usage("--store needs a PostgreSQL URL (postgres://user@host:5432/db) or a SQLite path (sqlite:PATH)")
        }
        if let scheme = Self.scheme(of: path) {
            throw .usage(
                "--store does not know the scheme '\(scheme)://'; use postgres://user@host:5432/db or sqlite:PATH")
        }
        self = .sqlite(path: path)
    }

    /// The scheme of a URL (`mysql` in `mysql://...`): letters, digits, `+`, `-` and `.` before
    /// `://`; `nil` for a path.
    private static func scheme(of text: String) -> Substring? {
        guard let end = text.firstRange(of: "://")?.lowerBound else { return nil }
        let scheme = text[..<end]
        let allowed = scheme.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "+" || scalar == "-" || scalar == "."
        }
        return !scheme.isEmpty && allowed ? scheme : nil
    }

    /// The store as messages name it: the SQLite path, or the PostgreSQL URL without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): "sqlite:" + (path ?? "(default)")
        case .postgres(let url): url.description
        }
    }
}
