import AggCore

/// The text of `agg --help` and `agg COMMAND --help`.
enum Help {
    static func overview(commands: [any Command.Type]) -> String {
        let entries =
            commands.map { ($0.spec.name, $0.spec.summary) } + [("help", "Show help for a command: agg help quote")]
        let width = entries.map(\.0.count).max() ?? 0
        let lines = entries.map { name, summary in
            "  " + name + String(repeating: " ", count: width - name.count + 2) + summary
        }
        return """
            agg \(AggVersion.current): crypto prices and FX rates from many venues, in one normalized view.

            USAGE: agg COMMAND [ARGUMENTS] [OPTIONS]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            OPTIONS:
              -h, --help     Show help.
              -V, --version  Show the version.

            EXAMPLES:
              agg quote BTC --exchange bithumb
              agg quote BTC ETH --offline --format json
              agg search 비트코인
              agg candles BTC --exchange bithumb --chart
              agg watch BTC ETH --exchange bithumb

            ENVIRONMENT:
              AGG_<ID>_URL   Replace a venue's base URL (AGG_BITHUMB_URL=http://127.0.0.1:8080/bithumb).
              AGG_OFFLINE=1  Answer from recorded responses, as --offline does.
              AGG_FIXTURES   The recorded responses --offline reads (default: share/agg/Fixtures
                             beside an installed agg, else the checkout's Fixtures/).
              AGG_HOME       The folder of the database (default $XDG_DATA_HOME/agg or
                             ~/.local/share/agg).
              AGG_CONFIG     The config file (default $XDG_CONFIG_HOME/agg/config.json or
                             ~/.config/agg/config.json); see 'agg config --help'.
              NO_COLOR       Turn colour off.

            PRECEDENCE: flags, then the environment, then the config file, then built-in defaults.

            EXIT CODES: 0 all answered, 1 a source failed, 64 usage error, 70 local database error,
            74 output could not be written (disk full, I/O error), 78 malformed config file.
            """
    }

    static func command(_ spec: CommandSpec, registry: AdapterRegistry) -> String {
        var text = "USAGE: agg \(spec.usage)\n\n\(spec.summary)\n"
        if let discussion = spec.discussion { text += "\n" + discussion + "\n" }
        if let capability = spec.venueCapability {
            text += "\nVENUES (registered, with \(capability.title)):\n" + venues(capability, registry: registry)
        }
        let labels = spec.options.map { option -> String in
            let short = option.short.map { "-\($0), " } ?? "    "
            return short + "--" + option.name + (option.valueName.map { " " + $0 } ?? "")
        }
        let width = labels.map(\.count).max() ?? 0
        text += "\nOPTIONS:\n"
        for (label, option) in zip(labels, spec.options) {
            text +=
                "  " + label + String(repeating: " ", count: width - label.count + 2) + option.help + "\n"
        }
        text += "\nEXAMPLES:\n" + spec.examples.map { "  " + $0 }.joined(separator: "\n")
        return text
    }

    /// One line per registered venue with `capability`, with what its limits allow.
    static func venues(_ capability: Capability, registry: AdapterRegistry) -> String {
        let descriptors = registry.descriptors(supporting: capability)
        guard !descriptors.isEmpty else { return "  none is registered\n" }
        let width = descriptors.map(\.id.count).max() ?? 0
        return descriptors.map { descriptor in
            let limits = descriptor.limits
            let detail: String
            switch capability {
            case .candles:
                detail =
                    "intervals " + limits.candleIntervals.map(\.rawValue).joined(separator: " ")
                    + "; --limit up to \(limits.candles)"
            case .trades: detail = "--limit up to \(limits.trades)"
            case .orderBook: detail = "--depth up to \(limits.bookDepth)"
            default: detail = descriptor.displayName
            }
            return "  " + descriptor.id + String(repeating: " ", count: width - descriptor.id.count + 2) + detail + "\n"
        }.joined()
    }
}
