import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions

/// The checkout's root, from this file's path (Tests/AggCLITests/<file>).
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Suite("docs/commands.md")
struct CommandReferenceTests {
    @Test("docs/commands.md is generated from the specs (Tools/update-docs.sh regenerates it)")
    func fresh() throws {
        let file = packageRoot.appendingPathComponent("docs/commands.md")
        let generated = CLI.commandReference()
        if ProcessInfo.processInfo.environment["AGG_UPDATE_DOCS"] == "1" {
            try generated.write(to: file, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == generated, "docs/commands.md is stale: run Tools/update-docs.sh")
    }

    @Test("the reference has every command's usage line and options")
    func complete() {
        let reference = CLI.commandReference()
        for command in CLI.commands {
            #expect(reference.contains("## agg \(command.spec.name)\n"))
            #expect(reference.contains("agg \(command.spec.usage)\n"))
            for option in command.spec.options {
                #expect(reference.contains("--" + option.name))
            }
        }
    }

    @Test("--help's ENVIRONMENT names every variable the sources read")
    func environment() async throws {
        let sources = packageRoot.appendingPathComponent("Sources")
        var read: Set<String> = []
        // `environment["X"]` (a dictionary, such as ProcessInfo's) and `getenv("X")`.
        let pattern = try Regex(#"(?:environment\[|getenv\()"([A-Z_]+)"[\])]"#)
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for path in files
        where path.hasSuffix(".swift") && !path.hasPrefix("agg-bench") && !path.hasPrefix("AggTestKit") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let name = match.output[1].substring { read.insert(String(name)) }
            }
        }
        #expect(read.contains("AGG_HOME") && read.contains("NO_COLOR") && read.contains("TMPDIR"))
        let run = await runCLI(["--help"])
        let section = run.output.components(separatedBy: "ENVIRONMENT:").last ?? ""
        for name in read.sorted() {
            #expect(section.contains("  " + name), "--help does not list \(name)")
        }
        #expect(section.contains("AGG_<ID>_URL"))
    }
}
