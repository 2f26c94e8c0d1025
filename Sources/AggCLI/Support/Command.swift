import AggCore

/// A subcommand of `agg`.
public protocol Command: Sendable {
    static var spec: CommandSpec { get }

    /// Runs with parsed arguments; returns the exit code. Usage errors may be thrown and are
    /// reported by the caller with exit code 64.
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
}
