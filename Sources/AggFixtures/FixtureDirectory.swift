import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the fixture answers live.
public enum FixtureDirectory {
    /// The `Fixtures/` folder: `$AGG_FIXTURES` when set; else `share/agg/Fixtures` beside an
    /// installed binary (`<prefix>/bin/agg` reads `<prefix>/share/agg/Fixtures`) when it
    /// exists; else `checkout`, the source tree this binary was built from.
    ///
    /// - Parameter executable: the running executable's real path (`executablePath()`): run by
    ///   name through `PATH`, or through a symbolic link, `argv[0]` says neither where it is nor
    ///   which prefix it belongs to.
    public static func locate(
        environment: [String: String], executable: String? = executablePath(), checkout: URL = checkout
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
        environment: [String: String], executable: String? = executablePath(), checkout: URL = checkout
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

    /// The running executable's real path: `/proc/self/exe` (symbolic links resolved by the
    /// kernel); where there is no `/proc`, `argv[0]` when it is a path.
    public static func executablePath() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    readlink("/proc/self/exe", $0, bytes.count)
                }
            } ?? -1
        }
        if count > 0, count < buffer.count {
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath().path
    }

    /// `<prefix>/share/agg/Fixtures` for `<prefix>/bin/agg`.
    private static func installed(beside executable: String?) -> URL? {
        guard let executable, executable.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: executable)
            .deletingLastPathComponent()  // bin
            .deletingLastPathComponent()  // prefix
            .appendingPathComponent("share/agg/Fixtures", isDirectory: true)
    }

    private static func isFolder(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
