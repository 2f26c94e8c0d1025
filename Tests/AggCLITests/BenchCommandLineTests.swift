import AggTestKit
import Foundation
import Testing

/// agg-bench's command line is declared with agg's `CommandSpec`: `--help` is generated from it,
/// and a bad flag is one line on stderr and exit 64, as for agg's own commands.
@Suite("agg-bench command line")
struct BenchCommandLineTests {
    /// The agg-bench built with these tests: beside the test bundle, else the checkout's debug
    /// build (`swift build --build-tests` builds it with the tests).
    static var executable: String {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("agg-bench"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("agg-bench"),
            Fixtures.directory.deletingLastPathComponent().appendingPathComponent(".build/debug/agg-bench"),
        ]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]).path
    }

    static let usage = "agg-bench [--runs N] [--only N[,N...]] [--agg PATH] [--record-ticks N]"

    @Test("--help is generated from the spec: usage, the sections, options and examples")
    func help() async throws {
        let run = try await AggBinary.run(["--help"], executable: Self.executable)
        #expect(run.status == 0)
        #expect(run.error == "")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "USAGE: " + Self.usage)
        #expect(
            lines.contains(
                "5. Market scale: 'agg quote --all' against one coin in paired runs; rendering and caching 2,000 quotes."
            ))
        #expect(
            lines.contains("      --runs N          Repeat each measurement N times and report medians (default: 21)."))
        #expect(
            lines.contains("      --only N[,N...]   Run only these sections, by number (default: every one, 1 to 10)."))
        #expect(
            lines.contains(
                "9. Stream decoding: each streaming venue's ticker messages read by its codec on one core (msg/s)."))
        #expect(
            lines.contains(
                "10. Reconnect: each streaming venue's stream dropped on loopback: drop to first fresh value, backoff, snapshot."
            ))
        #expect(lines.contains("  -h, --help            Show help for this command."))
        #expect(lines.contains("  agg-bench --runs 21 --only 3,5"))
        // `help` as the argument asks for the same text.
        #expect(try await AggBinary.run(["help"], executable: Self.executable).output == run.output)
    }

    @Test(
        "a bad command line is one line on stderr and exit 64, before anything is measured",
        arguments: [
            (["--runs", "x"], "agg-bench: invalid --runs 'x': expected a whole number from 1 to 10000"),
            (["--runs", "0"], "agg-bench: invalid --runs '0': expected a whole number from 1 to 10000"),
            (["--only", "11"], "agg-bench: invalid --only '11': expected section numbers from 1 to 10, such as 3,5"),
            (
                ["--only", "3,,5"],
                "agg-bench: invalid --only '3,,5': expected section numbers from 1 to 10, such as 3,5"
            ),
            (["--rns", "3"], "agg-bench: unknown option '--rns' for 'agg-bench'; did you mean '--runs'?"),
            (["--runs"], "agg-bench: option --runs needs a value (N)"),
            (["extra"], "agg-bench: unexpected argument 'extra'; usage: " + usage),
        ])
    func badCommandLine(arguments: [String], message: String) async throws {
        let run = try await AggBinary.run(arguments, executable: Self.executable)
        #expect(run.status == 64)
        #expect(run.output == "")
        #expect(run.error == message + "\n")
    }
}
