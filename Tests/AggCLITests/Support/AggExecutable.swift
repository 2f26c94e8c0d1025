import AggTestKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one run of the real `agg` executable did.
struct ProcessRun: Sendable {
    /// The exit status, or the signal number when `signaled`.
    var status: Int32
    /// Whether a signal ended the process (a crash, or our SIGKILL).
    var signaled: Bool
    var output: String
    var error: String

    /// Standard error's lines.
    var errorLines: [String] { error.split(separator: "\n").map(String.init) }
}

/// The `agg` executable built beside the test bundle, run as a separate process.
enum AggExecutable {
    /// Where SwiftPM puts `agg`: next to the test bundle (the directory of `Bundle.main`), else
    /// `.build/debug/agg` of this checkout.
    static func url() throws -> URL {
        let main = Bundle.main.bundleURL
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // AggCLITests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
        let candidates = [
            main.appendingPathComponent("agg"),
            main.deletingLastPathComponent().appendingPathComponent("agg"),
            root.appendingPathComponent(".build/debug/agg"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingExecutable(searched: candidates.map(\.path))
        }
        return found
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var searched: [String]
        var description: String { "no agg executable in \(searched.joined(separator: ", "))" }
    }

    /// Runs `agg arguments` with exactly `environment`, optionally sending SIGKILL after
    /// `killAfter`, and waits for it to end. Output goes through files, so a large answer never
    /// blocks on a full pipe.
    static func run(
        _ arguments: [String], environment: [String: String], killAfter: Duration? = nil
    ) async throws -> ProcessRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agg-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)

        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        let (ended, signal) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            signal.yield()
            signal.finish()
        }
        try process.run()
        if let killAfter {
            try await Task.sleep(for: killAfter)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        for await _ in ended {}
        try outputHandle.close()
        try errorHandle.close()
        return ProcessRun(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}

/// A copy of the exchangerate fixtures whose `routes.json` serves one chosen USD day, for
/// `agg --offline` runs in other processes (`AGG_FIXTURES`).
struct FixtureCopy {
    /// The folder to pass as `AGG_FIXTURES`.
    let directory: String

    init(in folder: String) throws {
        directory = folder + "/fixtures"
        let venue = directory + "/exchangerate"
        try FileManager.default.createDirectory(atPath: venue, withIntermediateDirectories: true)
        let source = Fixtures.directory.appendingPathComponent("exchangerate")
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(
                atPath: source.appendingPathComponent(name).path, toPath: venue + "/" + name)
        }
    }

    /// Makes `USD` answer with the recorded day `date` (`2024-08-19`).
    func serve(usdDay date: String) throws {
        try serve(file: "USD_\(date).json", recorded: "\(date)T00:02:31Z")
    }

    /// Makes `USD` answer with the 2024-08-21 rates published `seconds` after their recorded
    /// update time, so that every run has a snapshot of its own to write.
    func serve(day3Plus seconds: Int64) throws {
        let venue = directory + "/exchangerate/"
        let recorded = try String(contentsOfFile: venue + "USD_2024-08-21.json", encoding: .utf8)
        let marker = "\"time_last_update_unix\":1724198551"
        guard recorded.contains(marker) else { throw UnexpectedFixture(path: venue + "USD_2024-08-21.json") }
        let name = "USD_2024-08-21_plus_\(seconds).json"
        let text = recorded.replacingOccurrences(
            of: marker, with: "\"time_last_update_unix\":\(1_724_198_551 + seconds)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: venue + name))
        try serve(file: name, recorded: "2024-08-21T00:02:31Z")
    }

    /// A fixture that no longer has the shape this helper edits.
    struct UnexpectedFixture: Error {
        var path: String
    }

    private func serve(file: String, recorded: String) throws {
        let routes = """
            {"venue": "exchangerate", "recorded": "\(recorded)", "routes": [
              {"path": "/v6/latest/USD", "file": "\(file)"},
              {"path": "/v6/latest/KRW", "file": "KRW_2024-08-21.json"}
            ]}
            """
        try Data(routes.utf8).write(to: URL(fileURLWithPath: directory + "/exchangerate/routes.json"))
    }
}
