import AggCore
import AggOptions
import AggServices

/// A subcommand of `agg`.
protocol Command: Sendable {
    static var spec: CommandSpec { get }

    /// Runs with parsed arguments; returns the exit code. Usage errors may be thrown and are
    /// reported by the caller with exit code 64.
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode

    /// Whether the command needs a usable config file; `agg config path` does not (it says
    /// where the file is, even when the file is malformed).
    static func needsConfiguration(_ arguments: ParsedArguments) -> Bool
}

extension Command {
    static func needsConfiguration(_ arguments: ParsedArguments) -> Bool { true }
}
