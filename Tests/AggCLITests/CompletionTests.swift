import AggCore
import Foundation
import Testing

@testable import AggCLI
@testable import AggOptions

@Suite("shell completion")
struct CompletionTests {
    @Test("each script names every command, every long flag and every exchange id", arguments: ["bash", "zsh", "fish"])
    func coverage(shell: String) async throws {
        let registry = extendedRegistry()
        let run = await runCLI(["completion", shell], registry: registry)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        for command in CLI.commands {
            #expect(run.output.contains(command.spec.name), "\(shell): \(command.spec.name)")
            for option in command.spec.options {
                let spelled = shell == "fish" ? "-l \(option.name)" : "--\(option.name)"
                #expect(run.output.contains(spelled), "\(shell): \(command.spec.name) --\(option.name)")
            }
        }
        for id in registry.ids {
            #expect(run.output.contains(id), "\(shell): \(id)")
        }
        for interval in ["1m", "24h"] { #expect(run.output.contains(interval)) }
    }

    @Test("the bash script is valid bash and completes commands, flags, values and exchange lists")
    func bashBehaviour() async throws {
        let script = await runCLI(["completion", "bash"], registry: extendedRegistry()).output
        let file = try temporaryDirectory().appendingPathComponent("agg.bash")
        try Data(script.utf8).write(to: file)
        let probe = """
            source '\(file.path)'
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _agg; echo "${COMPREPLY[*]}"; }
            complete_words agg ca
            complete_words agg candles BTC --int
            complete_words agg candles BTC --interval 1
            complete_words agg quote -e bithumb,test
            complete_words agg completion ''
            complete_words agg help bo
            """
        let run = try await runProcess("/bin/bash", ["-c", probe])
        let output = run.output
        #expect(run.status == 0)
        #expect(
            output.split(separator: "\n", omittingEmptySubsequences: false) == [
                "candles", "--interval", "1m 10m 1h 12h", "bithumb,testbare bithumb,testnames",
                "bash zsh fish", "book", "",
            ])
    }

    @Test("an unknown shell is a usage error")
    func unknownShell() async throws {
        let run = await runCLI(["completion", "tcsh"])
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: unknown shell 'tcsh'; expected one of: bash, zsh, fish"])
    }
}
