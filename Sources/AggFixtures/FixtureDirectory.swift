import FoundationEssentials

/// Where the recorded responses live.
public enum FixtureDirectory {
    /// The `Fixtures/` folder: `$AGG_FIXTURES` when set; else `share/agg/Fixtures` beside an
    /// installed binary; else the checkout this binary was built from.
    public static func locate(environment: [String: String]) -> URL {
        if let path = environment["AGG_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
            .resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent()
            .appendingPathComponent("../share/agg/Fixtures", isDirectory: true).standardizedFileURL
        if FileManager.default.fileExists(atPath: installed.appendingPathComponent(".").path) {
            return installed
        }
        return checkout
    }

    /// `Fixtures/` in the source tree this module was compiled from.
    public static var checkout: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // AggFixtures
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Fixtures", isDirectory: true)
    }
}
