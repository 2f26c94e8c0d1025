import AggCore
import AggJSON
import FoundationEssentials

/// `agg exchanges`: the registered sources and what each can do.
public enum ExchangesCommand: Command {
    public static let spec = CommandSpec(
        name: "exchanges",
        summary: "List the registered venues and sources with their capabilities.",
        arguments: "",
        options: [CommonOptions.format, CommonOptions.color, CommonOptions.noColor],
        positionals: (0, 0),
        examples: ["agg exchanges", "agg exchanges --format json"]
    )

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
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

/// A request rate for people: `150`, `0.5`.
enum RateText {
    static func format(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate)
    }
}
