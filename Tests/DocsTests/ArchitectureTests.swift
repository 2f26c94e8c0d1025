import Foundation
import Synchronization
import Testing

/// The checkout these tests were compiled from.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // DocsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// The module graph as docs/architecture.md draws it: each module's dependencies, `<adapter>` for
/// every adapter module the page does not name, and `<every adapter>` among a module's dependencies
/// for all of them.
struct DocumentedGraph: Equatable {
    var dependencies: [String: Set<String>] = [:]

    /// Reads the first fenced block after the heading "## The module graph": lines `Name ──▶ A, B`
    /// (several names before the arrow share the dependencies), a continuation line starting with
    /// spaces, a module without an arrow has no dependency, and text in parentheses is a comment.
    init(markdown: String) throws {
        guard let heading = markdown.range(of: "## The module graph"),
            let open = markdown.range(of: "```\n", range: heading.upperBound..<markdown.endIndex),
            let close = markdown.range(of: "```", range: open.upperBound..<markdown.endIndex)
        else { throw GraphError.noGraph }
        var current: [String] = []
        for rawLine in markdown[open.upperBound..<close.lowerBound].split(separator: "\n") {
            var line = String(rawLine)
            if let comment = line.range(of: "  (") { line = String(line[..<comment.lowerBound]) }
            let isContinuation = line.first == " "
            let names: Substring
            let listed: Substring
            if isContinuation {
                names = ""
                listed = Substring(line)
            } else if let arrow = line.range(of: "▶") {
                names = line[..<arrow.lowerBound]
                listed = line[arrow.upperBound...]
            } else {
                names = Substring(line)
                listed = ""
            }
            if !isContinuation {
                current = Self.items(names.replacing("─", with: ""))
                for name in current where dependencies[name] != nil { throw GraphError.twice(name) }
                for name in current { dependencies[name] = [] }
            }
            for name in current { dependencies[name, default: []].formUnion(Self.items(listed)) }
        }
    }

    private static func items<S: StringProtocol>(_ text: S) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    enum GraphError: Error { case noGraph, twice(String) }
}

/// A target of the manifest as `swift package dump-package` prints it.
struct ManifestTarget: Sendable {
    var name: String
    var type: String
    var path: String?
    var dependencies: Set<String>
}

/// Where the page's graph and the manifest differ, one line a module or an edge, naming it:
/// `edge AggCLI ──▶ AggServer: in Package.swift, not in docs/architecture.md`. A module under
/// `Plugins/` that the page does not name is drawn by its `<adapter>` line; `<every adapter>`
/// among a module's dependencies stands for all of them.
func graphDifferences(documented: [String: Set<String>], targets: [ManifestTarget]) -> [String] {
    let adapters = Set(targets.filter { $0.path?.hasPrefix("Plugins/") == true }.map(\.name))
    func expand(_ names: Set<String>) -> Set<String> {
        names.contains("<every adapter>") ? names.subtracting(["<every adapter>"]).union(adapters) : names
    }
    let page = "docs/architecture.md"
    var found: [String] = []
    for target in targets.sorted(by: { $0.name < $1.name }) {
        guard let drawn = documented[target.name] ?? (adapters.contains(target.name) ? documented["<adapter>"] : nil)
        else {
            found.append("module \(target.name): in Package.swift, not in \(page)")
            continue
        }
        let edges = expand(drawn)
        for missing in target.dependencies.subtracting(edges).sorted() {
            found.append("edge \(target.name) ──▶ \(missing): in Package.swift, not in \(page)")
        }
        for extra in edges.subtracting(target.dependencies).sorted() {
            found.append("edge \(target.name) ──▶ \(extra): in \(page), not in Package.swift")
        }
    }
    let modules = Set(targets.map(\.name))
    for stale in Set(documented.keys).subtracting(modules).subtracting(["<adapter>"]).sorted() {
        found.append("module \(stale): in \(page), not in Package.swift")
    }
    return found
}

/// The manifest's targets, read once per test run: `swift package dump-package` takes seconds of
/// a loaded two-core machine, so every test that needs the manifest shares this one run.
private let manifest = Task { try await ManifestReader.targets() }

/// Runs `swift package dump-package` in the checkout.
enum ManifestReader {
    /// How long dump-package may take: it evaluates the manifest, which on a loaded two-core
    /// machine has taken over a minute; a hung run fails the test instead of hanging the suite.
    static let limit: Duration = .seconds(300)

    /// `swift` on PATH, or `nil`: the only case in which the test is skipped.
    static var swiftOnPath: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/swift")
        }
    }

    /// The manifest's targets, with a scratch folder of dump-package's own: the package's
    /// `.build` is locked by the `swift test` running this. Output goes to files, not pipes, so
    /// a large manifest cannot fill a pipe and stall the process while the test waits on it.
    ///
    /// The process is awaited, not waited for: its end resumes the caller, and a timer task
    /// terminates it at the limit. A test thread that slept until it ended held one of the
    /// cooperative pool's two threads for as long as dump-package ran (over a minute in the
    /// scaffold check's debug suite), and the other tests' async work starved meanwhile (serve's
    /// answers late past their client's 10 s, streams' events past their 20 s).
    static func targets() async throws -> [ManifestTarget] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("agg-dump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("dump.json")
        let errorURL = scratch.appendingPathComponent("dump.err")
        for url in [outputURL, errorURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "package", "--package-path", packageRoot.path, "--scratch-path",
            scratch.appendingPathComponent("build").path, "dump-package",
        ]
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        let timedOut = Mutex(false)
        let watchdog = Task {
            try await Task.sleep(for: limit)
            timedOut.withLock { $0 = true }
            process.terminate()
        }
        defer { watchdog.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        if timedOut.withLock({ $0 }) { throw ManifestError.timedOut(limit) }
        let errorText = String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0,
            let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: outputURL)) as? [String: Any],
            let targets = json["targets"] as? [[String: Any]]
        else { throw ManifestError.unreadable(process.terminationStatus, errorText) }
        return targets.compactMap { target in
            guard let name = target["name"] as? String, let type = target["type"] as? String else { return nil }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            return ManifestTarget(
                name: name, type: type, path: target["path"] as? String, dependencies: Set(dependencies))
        }
    }
}

private enum ManifestError: Error, CustomStringConvertible {
    case unreadable(Int32, String)
    case timedOut(Duration)

    var description: String {
        switch self {
        case .unreadable(let status, let error):
            "swift package dump-package exited \(status) or printed no targets: \(error)"
        case .timedOut(let limit): "swift package dump-package did not finish within \(limit)"
        }
    }
}

@Suite("Architecture")
struct ArchitectureTests {
    @Test(
        "docs/architecture.md's module graph is the manifest's, module for module and edge for edge",
        .enabled(if: ManifestReader.swiftOnPath, "skipped: `swift` is not on PATH, so the manifest cannot be read"))
    func moduleGraph() async throws {
        let page = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let documented = try DocumentedGraph(markdown: page).dependencies
        let targets = try await manifest.value.filter { $0.type != "test" }
        #expect(targets.count > 10, "dump-package listed \(targets.count) targets")
        #expect(targets.contains { $0.path?.hasPrefix("Plugins/") == true })
        let differences = graphDifferences(documented: documented, targets: targets)
        #expect(differences == [], Comment(rawValue: differences.joined(separator: "\n")))
    }

    @Test("each difference is one line naming the module or the edge, in either direction")
    func differences() {
        let targets = [
            ManifestTarget(name: "App", type: "executable", path: nil, dependencies: ["Core", "Net"]),
            ManifestTarget(name: "Core", type: "regular", path: nil, dependencies: []),
            ManifestTarget(name: "Net", type: "regular", path: nil, dependencies: ["Core"]),
            ManifestTarget(name: "Kraken", type: "regular", path: "Plugins/Kraken", dependencies: ["Core"]),
            ManifestTarget(name: "OKX", type: "regular", path: "Plugins/OKX", dependencies: ["Core", "Net"]),
            ManifestTarget(name: "Venues", type: "regular", path: nil, dependencies: ["Core", "Kraken", "OKX"]),
        ]
        let agreeing: [String: Set<String>] = [
            "App": ["Core", "Net"], "Core": [], "Net": ["Core"], "<adapter>": ["Core"], "OKX": ["Core", "Net"],
            "Venues": ["Core", "<every adapter>"],
        ]
        #expect(graphDifferences(documented: agreeing, targets: targets) == [])
        var drifted = agreeing
        drifted["App"] = ["Core", "Store"]
        drifted["Net"] = nil
        drifted["OKX"] = nil
        drifted["Store"] = []
        #expect(
            graphDifferences(documented: drifted, targets: targets) == [
                "edge App ──▶ Net: in Package.swift, not in docs/architecture.md",
                "edge App ──▶ Store: in docs/architecture.md, not in Package.swift",
                "module Net: in Package.swift, not in docs/architecture.md",
                "edge OKX ──▶ Net: in Package.swift, not in docs/architecture.md",
                "module Store: in docs/architecture.md, not in Package.swift",
            ])
    }

    @Test("the graph reader reads names, shared lines, continuations and comments")
    func reader() throws {
        let page = """
            ## The module graph

            ```
            A ──▶ B, C           (a comment, with a comma)
                  D
            E, F ─▶ B
            B                    (no dependency)
            ```
            """
        let graph = try DocumentedGraph(markdown: page).dependencies
        #expect(graph == ["A": ["B", "C", "D"], "E": ["B"], "F": ["B"], "B": []])
        #expect(throws: DocumentedGraph.GraphError.self) {
            try DocumentedGraph(markdown: "## The module graph\n\n```\nA ─▶ B\nA ─▶ C\n```\n")
        }
    }
}
