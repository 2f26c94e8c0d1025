import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions

/// The checkout these tests were compiled from (Tests/DocsTests/<file>).
private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
}

/// The Markdown files whose links are checked: the README and every page in docs/.
private func markdownFiles() throws -> [String] {
    let pages = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return ["README.md"] + pages
}

@Suite("README and docs/")
struct ReadmeTests {
    @Test("the README is the front door: under 15 KB")
    func size() throws {
        let bytes = try read("README.md").utf8.count
        #expect(bytes < MarkdownLinks.readmeLimit, "README.md is \(bytes) bytes: move the detail into docs/")
    }

    @Test("every relative link of the README and docs/ names a file and heading that exist")
    func links() throws {
        for file in try markdownFiles() {
            let problems = try MarkdownLinks.brokenLinks(in: read(file), of: file) { path in
                // A linked image is not UTF-8, but it exists: its bytes, decoded leniently.
                (try? Data(contentsOf: root.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
    }

    @Test("every command agg --help lists has a row in the README's command table, linking its reference")
    func commandTable() throws {
        let rows = MarkdownLinks.commandTableRows(in: try read("README.md"))
        #expect(!rows.isEmpty)
        for command in CLI.commands {
            let name = command.spec.name
            let row = rows.first { $0.contains("[`agg \(name)`]") || $0.contains("[`agg \(name) ") }
            guard let row else {
                Issue.record("README's command table has no row for agg \(name)")
                continue
            }
            #expect(row.contains("(docs/commands.md#agg-\(name))"), "agg \(name)'s row does not link its reference")
        }
    }

    @Test("docs/configuration.md shows --help's ENVIRONMENT as it is")
    func environment() throws {
        #expect(try read("docs/configuration.md").contains("\n```\n" + Help.environmentText + "\n```\n"))
    }

    @Test("every release build the docs show builds agg with Tools/agg's flags (--static-swift-stdlib)")
    func releaseBuilds() throws {
        #expect(try read("Tools/agg").contains("-c release --static-swift-stdlib --product agg"))
        for file in try markdownFiles() {
            for line in try read(file).split(separator: "\n")
            where line.drop(while: { $0 == " " }).hasPrefix("swift build -c release") {
                #expect(line.contains("--static-swift-stdlib"), "\(file): \(line)")
            }
        }
    }

    @Test("the checker finds a missing file and a missing heading, and reads only the Commands table")
    func checkerFails() {
        let page = "# Title\n\n## Two words\n\n```\n## not a heading\n```\n"
        let files = ["docs/page.md": page]
        let text = """
            [ok](docs/page.md#two-words) [top](#top) [gone](docs/gone.md) [bad](docs/page.md#not-a-heading)
            [web](https://example.com/x.md)

            # Top
            """
        let problems = MarkdownLinks.brokenLinks(in: text, of: "README.md") { files[$0] }
        #expect(problems == ["docs/gone.md: no such file", "docs/page.md#not-a-heading: no such heading"])
        let table = "## Commands\n\n| command |\n| --- |\n| [`agg quote SYMBOL`](x) |\n\n## Next\n| [`agg book`](y) |\n"
        #expect(MarkdownLinks.commandTableRows(in: table) == ["| command |", "| --- |", "| [`agg quote SYMBOL`](x) |"])
    }

    @Test(
        "headings become GitHub's anchors",
        arguments: [
            ("## `agg quote`", "agg-quote"),
            ("### The day's rates come from the database", "the-days-rates-come-from-the-database"),
            ("## 6. Fixtures", "6-fixtures"),
            ("## Which FX source for a shared service", "which-fx-source-for-a-shared-service"),
        ])
    func anchors(heading: String, anchor: String) {
        #expect(MarkdownLinks.anchors(in: heading + "\n") == [anchor])
    }
}

/// Reads links, headings and the command table out of Markdown, as GitHub renders them.
enum MarkdownLinks {
    /// The README's size limit, in bytes.
    static let readmeLimit = 15_000

    /// The anchors of `text`'s headings (outside code blocks), with GitHub's `-1`, `-2` suffixes
    /// for repeated ones.
    static func anchors(in text: String) -> [String] {
        var anchors: [String] = []
        var seen: [String: Int] = [:]
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced, line.hasPrefix("#"), let space = line.firstIndex(of: " "),
                line[..<space].allSatisfy({ $0 == "#" })
            else { continue }
            let title = line[line.index(after: space)...].lowercased()
            let slug = String(
                title.compactMap { character -> Character? in
                    if character == " " { return "-" }
                    return character.isLetter || character.isNumber || character == "-" || character == "_"
                        ? character : nil
                })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// Each relative link of `text` (the file at `path`) whose file or heading does not exist,
    /// described in one line; `contents` reads a file by its path from the package root.
    static func brokenLinks(in text: String, of path: String, contents: (String) -> String?) -> [String] {
        let directory = (path as NSString).deletingLastPathComponent
        var problems: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            if fenced { continue }
            for match in line.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let resolved = file.isEmpty ? path : normalized(directory.isEmpty ? file : directory + "/" + file)
                guard let page = file.isEmpty ? text : contents(resolved) else {
                    problems.append("\(target): no such file")
                    continue
                }
                if parts.count == 2, !anchors(in: page).contains(String(parts[1])) {
                    problems.append("\(target): no such heading")
                }
            }
        }
        return problems
    }

    /// `path` without `.` and `dir/..` components.
    private static func normalized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            if component == "." { continue }
            if component == "..", let last = components.last, last != ".." {
                components.removeLast()
            } else {
                components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    /// The table rows of the README's `## Commands` section.
    static func commandTableRows(in text: String) -> [String] {
        var rows: [String] = []
        var inSection = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## ") { inSection = line == "## Commands" }
            if inSection, line.hasPrefix("|") { rows.append(String(line)) }
        }
        return rows
    }
}
