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
    /// HOME only, so the developer's own settings never leak in). Standard output goes to
    /// `standardOutput` when given (a file such as `/dev/full`, or a terminal), else to the
    /// returned pipe; standard error likewise to `standardError` or the returned pipe. `executable` replaces `url` (a copy installed elsewhere; a bare name is
    /// looked up in the environment's `PATH`, as a shell would).
    public static func start(
        _ arguments: [String], environment: [String: String], standardOutput: FileHandle? = nil,
        standardError: FileHandle? = nil, executable: String? = nil
    ) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        var base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        base.merge(environment) { _, new in new }
        if let executable, !executable.contains("/") {
            // `env` finds the name in PATH and runs it with argv[0] being that bare name.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        } else {
            process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? url
            process.arguments = arguments
        }
        process.environment = base
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = standardOutput ?? output
        process.standardError = standardError ?? error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if standardOutput != nil { try output.fileHandleForWriting.close() }
        if standardError != nil { try error.fileHandleForWriting.close() }
        return (process, output, error)
    }

    /// Runs `agg` to completion off the cooperative pool and returns what it printed
    /// (`output` is empty when `standardOutput` takes it elsewhere).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], standardOutput: FileHandle? = nil,
        executable: String? = nil
    ) async throws -> Run {
        let started = Date()
        let (process, output, error) = try start(
            arguments, environment: environment, standardOutput: standardOutput, executable: executable)
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
