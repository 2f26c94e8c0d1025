import AggCore
import AggJSON
import AggOptions
import AggServices
import FoundationEssentials

extension ExchangesCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let format = OutputFormat.resolve(context.settings(arguments), console: context.console)
        let rendering = ExchangesRendering(
            descriptors: context.registry.descriptors,
            baseURL: { descriptor in context.configuration.baseURL(for: descriptor, environment: context.environment) },
            origin: { descriptor in context.registry.registration(id: descriptor.id)?.origin ?? .builtIn })
        Output.write(
            rendering, format: format, style: TextStyle.resolve(arguments, context: context), console: context.console)
        return .success
    }
}
