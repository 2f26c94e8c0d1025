import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg exchanges`: the registered sources and what each can do.
package enum ExchangesCommand {
    package static let spec = CommandSpec(
        name: "exchanges",
        summary: "List the registered venues and sources with their capabilities.",
        arguments: "",
        options: [CommonOptions.format, CommonOptions.color, CommonOptions.noColor],
        positionals: (0, 0),
        examples: ["agg exchanges", "agg exchanges --format json"]
    )
}
