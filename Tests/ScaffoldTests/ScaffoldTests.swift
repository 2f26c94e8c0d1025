import Foundation
import Synchronization
import Testing

/// The checkout these tests were compiled from.
let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ScaffoldTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// What a script printed (standard output and error together) and how it exited.
struct ScriptRun {
    var status: Int32
    var output: String
}

/// Runs `Tools/<script>` with bash, without blocking a thread of the test pool while it runs;
/// `environment` is added to this process's.
func runScript(
    _ script: String, _ arguments: [String], lowPriority: Bool = false, environment: [String: String] = [:]
) async throws -> ScriptRun {
    let process = Process()
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let command = ["bash", root.appendingPathComponent("Tools/\(script)").path] + arguments
    process.arguments = lowPriority ? ["nice", "-n", "19"] + command : command
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let output = OutputCollector()
    pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: error)
        }
    }
    pipe.fileHandleForReading.readabilityHandler = nil
    output.append(pipe.fileHandleForReading.readDataToEndOfFile())
    return ScriptRun(status: status, output: output.text)
}

/// Collects a process's output as it arrives.
private final class OutputCollector: Sendable {
    private let data = Mutex(Data())

    func append(_ chunk: Data) {
        data.withLock { $0.append(chunk) }
    }

    var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }
}

/// A temporary package root holding only what the scaffold edits.
private func skeleton() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("agg-scaffold-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("Sources/agg"), withIntermediateDirectories: true)
    for path in ["Package.swift", "Sources/agg/Adapters.swift"] {
        try FileManager.default.copyItem(
            at: root.appendingPathComponent(path), to: directory.appendingPathComponent(path))
    }
    return directory
}

private func text(_ directory: URL, _ path: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
}

@Suite("Adapter scaffold")
struct ScaffoldTests {
    @Test("creates the adapter, its tests and fixtures, and registers it in the manifest and the executable")
    func createsAndRegisters() async throws {
        let directory = try skeleton()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await runScript("scaffold-adapter.sh", ["--name", "Coinone", "--root", directory.path])
        #expect(run.status == 0, "\(run.output)")

        let files = [
            "Plugins/Coinone/APIRouter.swift", "Plugins/Coinone/CoinoneDecoding.swift",
            "Plugins/Coinone/CoinoneAdapter.swift", "Tests/CoinoneTests/CoinoneTests.swift",
            "Fixtures/coinone/routes.json", "Fixtures/coinone/ticker_BTC_KRW.json",
            "Fixtures/coinone/error_not_found.json",
        ]
        for file in files {
            let contents = try text(directory, file)
            #expect(!contents.contains("__NAME__") && !contents.contains("__ID__"), "\(file)")
        }
        #expect(try text(directory, "Plugins/Coinone/CoinoneAdapter.swift").contains("id: \"coinone\""))
        #expect(try text(directory, "Fixtures/coinone/routes.json").contains("\"venue\": \"coinone\""))

        let manifest = try text(directory, "Package.swift")
        #expect(manifest.contains("    \"ExchangeRate\",\n    \"Coinone\",\n]"))
        let adapters = try text(directory, "Sources/agg/Adapters.swift")
        #expect(adapters.contains("import Coinbase\nimport Coinone\nimport ExchangeRate\n"))
        #expect(adapters.contains("    registry.register(CoinoneAdapter.self)\n}"))
        #expect(run.output.contains("testRegistry()"))

        let again = try await runScript("scaffold-adapter.sh", ["--name", "Coinone", "--root", directory.path])
        #expect(again.status == 1)
        #expect(again.output == "scaffold-adapter: 'Coinone' is already in adapterNames\n")
    }

    @Test("--id sets the id users type; the module keeps its name")
    func customID() async throws {
        let directory = try skeleton()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await runScript(
            "scaffold-adapter.sh", ["--name", "KorbitPro", "--id", "korbit", "--root", directory.path])
        #expect(run.status == 0, "\(run.output)")
        #expect(try text(directory, "Plugins/KorbitPro/KorbitProAdapter.swift").contains("id: \"korbit\""))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("Fixtures/korbit").path))
    }

    @Test(
        "bad arguments change nothing and say why in one line",
        arguments: [
            (["--name", "coinone"], Int32(1), "invalid name 'coinone'"),
            (["--name", "Coin-one"], 1, "invalid name 'Coin-one'"),
            (["--name", "Coinone", "--id", "Coin One"], 1, "invalid id 'Coin One'"),
            (["--name", "Bithumb"], 1, "'Bithumb' is already in adapterNames"),
            (["--name", "AggExtra"], 1, "collides with a module agg already uses"),
            (["--name", "Bithumb2", "--id", "bithumb"], 1, "an adapter with id 'bithumb' already exists"),
            ([], 64, "usage:"),
            (["--nmae", "X"], 64, "unknown argument '--nmae'"),
        ])
    func badArguments(arguments: [String], status: Int32, message: String) async throws {
        let directory = try skeleton()
        defer { try? FileManager.default.removeItem(at: directory) }
        if arguments.contains("bithumb") {
            let plugin = directory.appendingPathComponent("Plugins/Bithumb")
            try FileManager.default.createDirectory(at: plugin, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("Plugins/Bithumb/BithumbAdapter.swift"),
                to: plugin.appendingPathComponent("BithumbAdapter.swift"))
        }
        let manifest = try text(directory, "Package.swift")
        let run = try await runScript("scaffold-adapter.sh", arguments + ["--root", directory.path])
        #expect(run.status == status)
        #expect(run.output.contains(message), "\(run.output)")
        #expect(try text(directory, "Package.swift") == manifest)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Tests").path))
    }

    /// Copies the package, scaffolds an adapter in the copy, builds only its test target and its
    /// dependencies, and runs its tests: about 40 s on two idle cores, so it runs only where
    /// `AGG_SCAFFOLD_CHECK=1` (CI sets it).
    @Test(
        "the scaffold's output builds and its tests pass",
        .enabled(if: ProcessInfo.processInfo.environment["AGG_SCAFFOLD_CHECK"] == "1"),
        .timeLimit(.minutes(15)))
    func buildsAndPasses() async throws {
        let run = try await runScript("check-scaffold.sh", [], lowPriority: true)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("Test run with 4 tests in 2 suites passed"), "\(run.output)")
    }
}
