import Foundation
import Synchronization

/// Runs the built `agg` executable, for end-to-end tests.
public enum AggBinary {
    /// What one run printed and returned.
    public struct Run: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
        /// Wall time of the run, in seconds.
        public var seconds: Double

        /// Standard error's lines.
        public var errorLines: [String] { error.split(separator: "\n").map(String.init) }
    }

    /// The executable: `$AGG_BINARY`, else `agg` beside the test bundle, else the checkout's
    /// `.build/debug/agg`.
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["AGG_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("agg"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("agg"),
            Fixtures.directory.deletingLastPathComponent().appendingPathComponent(".build/debug/agg"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    /// Starts `agg` with `arguments` and `environment` (added to a minimal environment: PATH and
    /// HOME only, so the developer's own settings never leak in).
    public static func start(_ arguments: [String], environment: [String: String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        base.merge(environment) { _, new in new }
        process.environment = base
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, error)
    }

    /// Runs `agg` to completion off the cooperative pool and returns what it printed.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        let started = Date()
        let (process, output, error) = try start(arguments, environment: environment)
        // Each pipe is drained on a thread of its own, off the cooperative pool, so a chatty
        // stderr can never block the child while stdout is being read.
        let outputData = CollectedData()
        let errorData = CollectedData()
        let readers = DispatchGroup()
        for (pipe, sink) in [(output, outputData), (error, errorData)] {
            readers.enter()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread {
                let data = handle.readDataToEndOfFile()
                sink.set(data)
                readers.leave()
            }
        }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                readers.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Run(
                        status: process.terminationStatus,
                        output: String(decoding: outputData.value, as: UTF8.self),
                        error: String(decoding: errorData.value, as: UTF8.self),
                        seconds: Date().timeIntervalSince(started)))
            }
        }
    }
}

/// Bytes handed from a reader thread to the waiting test.
final class CollectedData: Sendable {
    private let storage = Mutex(Data())

    func set(_ data: Data) { storage.withLock { $0 = data } }

    var value: Data { storage.withLock { $0 } }
}
