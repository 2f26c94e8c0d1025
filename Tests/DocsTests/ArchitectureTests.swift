import Foundation
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
struct ManifestTarget {
    var name: String
    var type: String
    var path: String?
    var dependencies: Set<String>
}

/// Runs `swift package dump-package` in the checkout, with a scratch folder of its own: the
/// package's `.build` is locked by the `swift test` running this.
private func manifestTargets() throws -> [ManifestTarget] {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("agg-dump-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "swift", "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path,
        "dump-package",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let targets = json["targets"] as? [[String: Any]]
    else { throw ManifestError.unreadable(process.terminationStatus) }
    return targets.compactMap { target in
        guard let name = target["name"] as? String, let type = target["type"] as? String else { return nil }
        let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
            dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
        }
        return ManifestTarget(name: name, type: type, path: target["path"] as? String, dependencies: Set(dependencies))
    }
}

private enum ManifestError: Error { case unreadable(Int32) }

@Suite("Architecture")
struct ArchitectureTests {
    @Test("docs/architecture.md's module graph is the manifest's, module for module and edge for edge")
    func moduleGraph() throws {
        let page = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let documented = try DocumentedGraph(markdown: page).dependencies
        let targets = try manifestTargets().filter { $0.type != "test" }
        #expect(targets.count > 10, "dump-package listed \(targets.count) targets")
        let adapters = Set(targets.filter { $0.path?.hasPrefix("Plugins/") == true }.map(\.name))
        #expect(!adapters.isEmpty)

        func expand(_ names: Set<String>) -> Set<String> {
            names.contains("<every adapter>") ? names.subtracting(["<every adapter>"]).union(adapters) : names
        }
        for target in targets {
            let drawn = documented[target.name] ?? (adapters.contains(target.name) ? documented["<adapter>"] : nil)
            #expect(drawn.map(expand) == target.dependencies, "\(target.name)")
        }
        let modules = Set(targets.map(\.name))
        let stale = Set(documented.keys).subtracting(modules).subtracting(["<adapter>"])
        #expect(stale.isEmpty, "the page draws modules the manifest does not have: \(stale.sorted())")
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
