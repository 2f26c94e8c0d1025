import Foundation
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
///
/// The script's output goes to a temporary file, not a pipe: a pipe is read until every process
/// holding its write end has gone, and a grandchild that outlives the script (a compiler
/// daemon, a server a test left behind) would then hold the test forever, where a file is read
/// once the script itself has exited.
func runScript(
    _ script: String, _ arguments: [String], environment: [String: String] = [:]
) async throws -> ScriptRun {
    let process = Process()
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["bash", root.appendingPathComponent("Tools/\(script)").path] + arguments
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("agg-script-\(UUID().uuidString).log")
    guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
    }
    defer { try? FileManager.default.removeItem(at: log) }
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: error)
        }
    }
    try handle.close()
    let output = try Data(contentsOf: log)
    return ScriptRun(status: status, output: String(decoding: output, as: UTF8.self))
}

/// A temporary package root holding only what the scaffold edits.
private func skeleton() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("agg-scaffold-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("Sources/AggVenues"), withIntermediateDirectories: true)
    for path in ["Package.swift", venueList] {
        try FileManager.default.copyItem(
            at: root.appendingPathComponent(path), to: directory.appendingPathComponent(path))
    }
    return directory
}

/// The one list of venues, which the scaffold extends.
private let venueList = "Sources/AggVenues/StandardVenues.swift"

private func text(_ directory: URL, _ path: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
}

/// `text` with `insertion` put before the first `terminator` after `anchor`.
private func inserting(_ insertion: String, in text: String, after anchor: String, before terminator: String) -> String?
{
    guard let start = text.range(of: anchor),
        let end = text.range(of: terminator, range: start.upperBound..<text.endIndex)
    else { return nil }
    var result = text
    result.insert(contentsOf: insertion, at: end.lowerBound)
    return result
}

/// The first of Probit, Probit2, Probit3, ... that `manifest`'s adapter list does not hold.
func unusedVenueName(in manifest: String) -> String {
    var candidate = "Probit"
    var number = 1
    while manifest.contains("    \"\(candidate)\",\n") {
        number += 1
        candidate = "Probit\(number)"
    }
    return candidate
}

@Suite("Adapter scaffold")
struct ScaffoldTests {
    @Test("creates the venue's files and adds it to the manifest and the one venue list, changing nothing else")
    func createsAndRegisters() async throws {
        let directory = try skeleton()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifestBefore = try text(directory, "Package.swift")
        let venuesBefore = try text(directory, venueList)
        // Not a name the package already has: docs/adding-a-venue.md walks a reader through adding
        // Probit, and this test must pass in the package that walkthrough leaves.
        let name = unusedVenueName(in: manifestBefore)
        let id = name.lowercased()
        let run = try await runScript("scaffold-adapter.sh", ["--name", name, "--root", directory.path])
        #expect(run.status == 0, "\(run.output)")

        let files = [
            "Plugins/\(name)/APIRouter.swift", "Plugins/\(name)/\(name)Decoding.swift",
            "Plugins/\(name)/\(name)Adapter.swift", "Fixtures/\(id)/expectations.json",
            "Fixtures/\(id)/routes.json", "Fixtures/\(id)/contract.json", "Fixtures/\(id)/ticker_BTC_KRW.json",
            "Fixtures/\(id)/error_not_found.json",
        ]
        for file in files {
            let contents = try text(directory, file)
            #expect(!contents.contains("__NAME__") && !contents.contains("__ID__"), "\(file)")
            // Nothing of the machine that ran the scaffold: no absolute path of a checkout or a home.
            for machinePath in [root.path, directory.path, "/work/", "/home/", "/root/", "/Users/", "/tmp/"] {
                #expect(!contents.contains(machinePath), "\(file) holds \(machinePath)")
            }
        }
        #expect(try text(directory, "Plugins/\(name)/\(name)Adapter.swift").contains("id: \"\(id)\""))
        // The adapter alone is exported, as `package` for the venue list; nothing is public, and
        // batching is descriptor data the core reads.
        let adapter = try text(directory, "Plugins/\(name)/\(name)Adapter.swift")
        #expect(adapter.contains("package struct \(name)Adapter: CompiledAdapter {"))
        #expect(adapter.contains("batching: .single"))
        for file in files where file.hasPrefix("Plugins/") {
            #expect(try !text(directory, file).contains("public "), "\(file)")
        }
        #expect(try text(directory, "Fixtures/\(id)/routes.json").contains("\"venue\": \"\(id)\""))
        // The venue's tests are data, run by the one expectations suite: no Swift test is written.
        #expect(try text(directory, "Fixtures/\(id)/expectations.json").contains("\"venue\": \"\(id)\""))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Tests/\(name)Tests").path))

        // The manifest gains one name at the end of adapterNames, whatever the names before it.
        let manifest = try text(directory, "Package.swift")
        #expect(
            manifest == inserting("    \"\(name)\",\n", in: manifestBefore, after: "let adapterNames = [", before: "]"))
        // The venue list gains its import, in order, and one registration at the end.
        let venues = try text(directory, venueList)
        let registered = inserting(
            "        AdapterRegistration(\(name)Adapter.self),\n", in: venuesBefore,
            after: "public static let standard = AdapterRegistry([", before: "    ])")
        let imports = venues.split(separator: "\n").filter { $0.hasPrefix("import ") }
        #expect(imports.contains("import \(name)"))
        #expect(imports == imports.sorted())
        #expect(venues.replacing("import \(name)\n", with: "") == registered)
        #expect(run.output.contains("Sources/AggVenues/StandardVenues.swift"))

        let again = try await runScript("scaffold-adapter.sh", ["--name", name, "--root", directory.path])
        #expect(again.status == 1)
        #expect(again.output == "scaffold-adapter: '\(name)' is already in adapterNames\n")
    }

    @Test("the test's venue name is never one the package already has")
    func unusedName() {
        #expect(unusedVenueName(in: "let adapterNames = [\n    \"Bithumb\",\n]") == "Probit")
        #expect(
            unusedVenueName(in: "let adapterNames = [\n    \"Probit\",\n    \"Probit2\",\n]") == "Probit3")
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
}
