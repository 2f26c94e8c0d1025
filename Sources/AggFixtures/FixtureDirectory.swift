import AggCore
import FoundationEssentials

/// Where the fixture answers live.
public enum FixtureDirectory {
    /// The `Fixtures/` folder: `$AGG_FIXTURES` when set; else `share/agg/Fixtures` beside an
    /// installed binary (`<prefix>/bin/agg` reads `<prefix>/share/agg/Fixtures`) when it
    /// exists; else `checkout`, the source tree this binary was built from.
    ///
    /// - Parameter executable: the running executable's real path (`RunningExecutable.path()`): run by
    ///   name through `PATH`, or through a symbolic link, `argv[0]` says neither where it is nor
    ///   which prefix it belongs to.
    public static func locate(
        environment: [String: String], executable: String? = RunningExecutable.path(), checkout: URL = checkout
    ) -> URL {
        if let path = environment["AGG_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        if let installed = installed(beside: executable), isFolder(installed) { return installed }
        return checkout
    }

    /// Why `locate`'s folder cannot be used, in one line naming where it looked; `nil` when it
    /// is a folder.
    public static func problem(
        environment: [String: String], executable: String? = RunningExecutable.path(), checkout: URL = checkout
    ) -> String? {
        let folder = locate(environment: environment, executable: executable, checkout: checkout)
        guard !isFolder(folder) else { return nil }
        if let path = environment["AGG_FIXTURES"], !path.isEmpty {
            return "AGG_FIXTURES names \(path), which is not a folder of fixture answers"
        }
        let places =
            (installed(beside: executable).map { ["\($0.path) (beside the executable)"] } ?? []) + [checkout.path]
        return "no fixture answers in \(places.joined(separator: " or ")); set AGG_FIXTURES to a folder of them"
    }

    /// `Fixtures/` in the source tree this module was compiled from.
    public static var checkout: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // AggFixtures
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Fixtures", isDirectory: true)
    }

    private static func installed(beside executable: String?) -> URL? {
        RunningExecutable.shared("Fixtures", beside: executable)
    }

    private static func isFolder(_ url: URL) -> Bool { RunningExecutable.isFolder(url) }
}
