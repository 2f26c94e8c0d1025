import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running `agg` and the folders installed beside it.
public enum RunningExecutable {
    /// The running executable's real path: `/proc/self/exe` (symbolic links resolved by the
    /// kernel); where there is no `/proc`, `argv[0]` when it is a path. Run by name through
    /// `PATH`, `argv[0]` says neither where the executable is nor which prefix it belongs to.
    public static func path() -> String? {
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

    /// `<prefix>/share/agg/<folder>` for the executable `<prefix>/bin/agg`; `nil` without an
    /// absolute path.
    public static func shared(_ folder: String, beside executable: String?) -> URL? {
        guard let executable, executable.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: executable)
            .deletingLastPathComponent()  // bin
            .deletingLastPathComponent()  // prefix
            .appendingPathComponent("share/agg/\(folder)", isDirectory: true)
    }

    /// Whether `url` is a folder (following symbolic links).
    public static func isFolder(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
