import AggCore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

/// The checkout's root, from this file's path (Tests/AggCLITests/<file>).
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A command's output shown in a docs page, regenerated from the code like docs/commands.md:
/// the fenced block after the marker `<!-- generated: agg ARGS (Tools/update-docs.sh) -->`.
struct DocSample: Sendable, CustomTestStringConvertible {
    var file: String
    var arguments: [String]

    var command: String { "agg " + arguments.joined(separator: " ") }
    var marker: String { "<!-- generated: \(command) (Tools/update-docs.sh) -->" }
    var testDescription: String { "\(file): \(command)" }

    /// `text` with the block after the marker holding `$ <command>` and `output`, or `nil` when
    /// the marker or its fenced block is missing.
    func replacingBlock(in text: String, output: String) -> String? {
        guard let markerRange = text.range(of: marker + "\n") else { return nil }
        let rest = text[markerRange.upperBound...]
        guard rest.hasPrefix("```"), let openingEnd = rest.firstIndex(of: "\n") else { return nil }
        let body = rest[rest.index(after: openingEnd)...]
        guard let closing = body.range(of: "\n```\n") ?? (body.hasPrefix("```\n") ? body.range(of: "```\n") : nil)
        else { return nil }
        let bodyEnd = closing.lowerBound == body.startIndex ? closing.lowerBound : body.index(after: closing.lowerBound)
        let generated = "$ \(command)\n" + output + (output.hasSuffix("\n") ? "" : "\n")
        return String(text[..<body.startIndex]) + generated + String(text[bodyEnd...])
    }
}

@Suite("docs samples")
struct DocSamplesTests {
    static let samples = [
        DocSample(file: "docs/usage.md", arguments: ["exchanges", "--format", "table"]),
        DocSample(file: "docs/configuration.md", arguments: ["config", "show"]),
    ]

    @Test(
        "each sample in the docs is the command's output today (Tools/update-docs.sh regenerates them)",
        arguments: samples)
    func fresh(sample: DocSample) async throws {
        // The real binary with no config file (a fresh AGG_HOME, no HOME): what a new user sees,
        // shipped venue files included.
        let home = NSTemporaryDirectory() + "agg-docs-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try await AggBinary.run(sample.arguments, environment: ["AGG_HOME": home, "COLUMNS": "300"])
        #expect(run.status == 0)
        #expect(run.error == "")
        let file = packageRoot.appendingPathComponent(sample.file)
        let committed = try String(contentsOf: file, encoding: .utf8)
        let generated = try #require(
            sample.replacingBlock(in: committed, output: run.output),
            "\(sample.file) has no fenced block after \(sample.marker)")
        if ProcessInfo.processInfo.environment["AGG_UPDATE_DOCS"] == "1" {
            try generated.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(committed == generated, "\(sample.file)'s '\(sample.command)' is stale: run Tools/update-docs.sh")
    }

    @Test("the block after a marker is replaced whole, and the text around it is kept")
    func replacing() throws {
        let sample = DocSample(file: "x.md", arguments: ["config", "show"])
        let text = "before\n\(sample.marker)\n```console\n$ agg config show\nold\nlines\n```\nafter\n"
        #expect(
            sample.replacingBlock(in: text, output: "{}\n")
                == "before\n\(sample.marker)\n```console\n$ agg config show\n{}\n```\nafter\n")
        #expect(sample.replacingBlock(in: "no marker\n", output: "{}") == nil)
    }
}
