import AggCore
import AggOptions
import AggServices

extension ConfigCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let request = try ConfigRequest(arguments, environment: context.environment)
        let service = ConfigService(
            environment: context.environment, configuration: context.configuration, registry: context.registry)
        ConfigRendering.write(service.run(request), console: context.console)
        return .success
    }

    /// `agg config path` works with a malformed config file: it says where the file is.
    static func needsConfiguration(_ arguments: ParsedArguments) -> Bool {
        arguments.positionals.first?.lowercased() != "path"
    }
}
