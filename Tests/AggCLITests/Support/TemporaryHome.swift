import Foundation

/// A fresh `AGG_HOME` for one test, removed afterwards, so that tests running in parallel never
/// share a database.
func withTemporaryHome<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("agg-cli-home-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// A path under the temporary folder that does not exist (yet).
func unusedTemporaryPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("agg-cli-none-\(UUID().uuidString)").path
}
