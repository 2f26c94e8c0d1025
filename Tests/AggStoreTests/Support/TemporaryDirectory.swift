import Foundation

/// A fresh folder for one test, removed afterwards, so that tests running in parallel never
/// share a database file.
func withTemporaryDirectory<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("agg-store-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
