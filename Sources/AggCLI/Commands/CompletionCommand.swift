import AggCore
import AggOptions
import AggServices

/// `agg completion`: prints a shell completion script made from this build's commands, flags
/// and exchange ids.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "completion",
        summary: "Print a shell completion script (bash, zsh or fish).",
        arguments: "bash|zsh|fish",
        options: [],
        positionals: (1, 1),
        examples: [
            "agg completion bash > ~/.local/share/bash-completion/completions/agg",
            "agg completion zsh > \"${fpath[1]}/_agg\"",
            "agg completion fish > ~/.config/fish/completions/agg.fish",
        ],
        discussion: """
            The script lists every command, every flag, the values of closed options and the ids
            of the registered exchanges; regenerate it after upgrading agg.
            """,
        positionalChoices: CompletionScript.Shell.allCases.map(\.rawValue)
    )

    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let name = arguments.positionals[0]
        guard let shell = CompletionScript.Shell(rawValue: name.lowercased()) else {
            throw .usage(
                "unknown shell '\(name)'; expected one of: \(CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        context.console.standardOutput.write(
            CompletionScript.script(
                for: shell, specs: CLI.commands.map { $0.spec }, exchangeIDs: context.registry.ids))
        return .success
    }
}
