import AggCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where agg keeps its database, resolved from the environment the caller passes in.
///
/// In order of preference:
/// 1. `$AGG_HOME/agg.sqlite`, when `AGG_HOME` is set and not empty;
/// 2. `$XDG_DATA_HOME/agg/agg.sqlite`, when `XDG_DATA_HOME` is an absolute path (the XDG Base
///    Directory specification says to ignore a relative one);
/// 3. `$HOME/.local/share/agg/agg.sqlite`, the XDG default.
///
/// The environment is a parameter rather than read from the process, so that tests (which run
/// in parallel) each resolve their own location.
public struct StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// The database file's name inside `directory`.
    public static let fileName = "agg.sqlite"

    /// The folder that holds the database.
    public let directory: String

    /// A location in `directory`, which `createDirectory()` makes when it does not exist.
    public init(directory: String) {
        self.directory = directory
    }

    /// The path of the database file.
    public var path: String {
        directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
    }

    /// The path of the database file.
    public var description: String { path }

    /// The location the environment selects.
    ///
    /// - Throws: `AggError.store` when none of `AGG_HOME`, `XDG_DATA_HOME` and `HOME` gives one.
    public static func resolve(environment: [String: String]) throws(AggError) -> StoreLocation {
        if let home = environment["AGG_HOME"], !home.isEmpty {
            return StoreLocation(directory: home)
        }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return StoreLocation(directory: join(dataHome, "agg"))
        }
        if let home = environment["HOME"], !home.isEmpty {
            return StoreLocation(directory: join(home, ".local/share/agg"))
        }
        throw .store("cannot choose a place for the database: set AGG_HOME (or HOME) to a directory")
    }

    /// Makes `directory` and any missing parents (mode 0700, as XDG asks for data folders).
    ///
    /// - Throws: `AggError.store` naming the folder and the reason, such as
    ///   "cannot create directory /x/file/agg for /x/file/agg/agg.sqlite: /x/file is not a directory".
    public func createDirectory() throws(AggError) {
        do throws(CreationFailure) {
            try Self.makeDirectories(directory)
        } catch {
            throw .store("cannot create directory \(directory) for \(path): \(error.reason)")
        }
    }

    private struct CreationFailure: Error {
        var reason: String
    }

    private static func makeDirectories(_ folder: String) throws(CreationFailure) {
        if let isDirectory = kind(of: folder) {
            guard isDirectory else { throw CreationFailure(reason: "\(folder) is not a directory") }
            return
        }
        let parent = parentFolder(of: folder)
        if let parent { try makeDirectories(parent) }
        guard mkdir(folder, 0o700) == 0 else {
            let code = errno
            // Another process may have made it in the meantime.
            if code == EEXIST, kind(of: folder) == true { return }
            let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
            throw CreationFailure(reason: "\(folder): \(text)")
        }
    }

    /// `true` for a directory, `false` for anything else that exists, `nil` when nothing is there.
    private static func kind(of path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The folder above `folder`, or `nil` at the root or for a single relative component.
    private static func parentFolder(of folder: String) -> String? {
        var trimmed = Substring(folder)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        let parent = trimmed[..<slash]
        if parent.isEmpty { return trimmed == "/" ? nil : "/" }
        return String(parent)
    }

    private static func join(_ folder: String, _ component: String) -> String {
        folder.hasSuffix("/") ? folder + component : folder + "/" + component
    }
}
