import AggCore
import AggJSON
import FoundationEssentials

/// `agg exchanges`: the registered sources and what each can do.
public enum ExchangesCommand: Command {
    public static let spec = CommandSpec(
        name: "exchanges",
        summary: "List the registered venues and sources with their capabilities.",
        usage: "exchanges [--format table|json|csv]",
        options: [CommonOptions.format, CommonOptions.color, CommonOptions.noColor],
        positionals: (0, 0),
        examples: ["agg exchanges", "agg exchanges --format json"]
    )

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let format = OutputFormat.resolve(
            arguments.value("format"), configured: context.configuration.format, console: context.console)
        let descriptors = context.registry.descriptors
        let factory = { (descriptor: AdapterDescriptor) -> String in
            context.configuration.baseURL(for: descriptor, environment: context.environment)
        }
        switch format {
        case .json:
            let entries: [JSONValue] = descriptors.map { descriptor in
                [
                    "id": .string(descriptor.id),
                    "name": .string(descriptor.displayName),
                    "country": .string(descriptor.country),
                    "homeCurrency": .string(descriptor.homeCurrency),
                    "quoteCurrencies": .array(descriptor.quoteCurrencies.map { .string($0) }),
                    "capabilities": .array(descriptor.capabilities.sorted().map { .string($0.rawValue) }),
                    "requestsPerSecond": .string(RateText.format(descriptor.requestsPerSecond)),
                    "baseURL": .string(factory(descriptor)),
                    "attribution": JSONOutput.string(descriptor.attribution),
                ]
            }
            context.console.print(
                JSONValue.object(JSONObject([.init(key: "exchanges", value: .array(entries))])).serialized()
            )
        case .csv:
            context.console.print(
                CSVWriter.render(
                    header: [
                        "id", "name", "country", "homeCurrency", "quoteCurrencies", "capabilities",
                        "requestsPerSecond", "baseURL",
                    ],
                    rows: descriptors.map { descriptor in
                        [
                            descriptor.id, descriptor.displayName, descriptor.country, descriptor.homeCurrency,
                            descriptor.quoteCurrencies.joined(separator: " "),
                            descriptor.capabilities.sorted().map(\.rawValue).joined(separator: " "),
                            RateText.format(descriptor.requestsPerSecond), factory(descriptor),
                        ]
                    }))
        case .table:
            var table = TextTable(columns: [
                .init("ID"), .init("NAME", priority: 3), .init("COUNTRY", priority: 2), .init("QUOTES"),
                .init("CAPABILITIES", priority: 4), .init("REQ/S", .right, priority: 1),
                .init("BASE URL", priority: 1),
            ])
            for descriptor in descriptors {
                table.append(texts: [
                    descriptor.id, descriptor.displayName, descriptor.country,
                    // An FX source quotes no markets.
                    descriptor.quoteCurrencies.isEmpty ? "-" : descriptor.quoteCurrencies.joined(separator: ","),
                    descriptor.capabilities.sorted().map(\.rawValue).joined(separator: ","),
                    RateText.format(descriptor.requestsPerSecond), factory(descriptor),
                ])
            }
            let style = TextStyle.resolve(arguments, context: context)
            context.console.print(table.render(width: context.console.width, style: style))
        }
        return .success
    }
}

/// A request rate for people: `150`, `0.5`.
enum RateText {
    static func format(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate)
    }
}
