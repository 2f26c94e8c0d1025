import AggCore

/// The text of `agg --help` and `agg COMMAND --help`.
package enum Help {
    package static func overview(commands: [CommandSpec]) -> String {
        let entries =
            commands.map { ($0.name, $0.summary) } + [("help", "Show help for a command: agg help quote")]
        let width = entries.map(\.0.count).max() ?? 0
        let lines = entries.map { name, summary in
            "  " + name + String(repeating: " ", count: width - name.count + 2) + summary
        }
        return """
            agg \(AggVersion.current): crypto prices and FX rates from many venues, in one normalized view.

            USAGE: agg COMMAND [ARGUMENTS] [OPTIONS]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            'agg help COMMAND', 'agg COMMAND --help', 'agg --help COMMAND' and 'agg COMMAND help'
            all show the same help for COMMAND.

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
            \(environmentText)

            PRECEDENCE: flags, then the environment, then the config file, then built-in defaults.

            EXIT CODES: 0 all answered, 1 a source failed, 64 usage error, 69 agg serve could not listen,
            70 local database error, 74 output could not be written (disk full, I/O error), 78 malformed
            config file.
            """
    }

    /// Every environment variable agg reads, with what it does, for `--help` and the docs.
    package static let environment: [(name: String, help: String)] = [
        (
            "AGG_<ID>_URL",
            "Replace a venue's base URL (AGG_BITHUMB_URL=http://127.0.0.1:8080/bithumb);"
                + " an http:// or https:// URL, checked as the config file's are (exit 78)."
        ),
        (
            "AGG_<SETTING>",
            "A config file setting, written as its flag takes it, over the file's: "
                + Settings.all.filter { $0.key != nil }.compactMap(\.variable).joined(separator: ", ")
                + " (AGG_TIMEOUT=30s; a bad value is exit 78)."
        ),
        ("AGG_OFFLINE=1", "Answer from the fixtures (recorded answers and sample data), as --offline does."),
        (
            "AGG_FIXTURES",
            "The fixtures --offline reads (default: share/agg/Fixtures"
                + " beside an installed agg, else the checkout's Fixtures/)."
        ),
        ("AGG_TOKEN", "The bearer token agg serve requires of clients, as --token gives it."),
        (
            "AGG_TELEGRAM_TOKEN",
            "The bot token of --notify telegram://CHAT_ID (else the file AGG_TELEGRAM_TOKEN_FILE"
                + " names); AGG_TELEGRAM_URL replaces https://api.telegram.org."
        ),
        (
            "AGG_DISCORD_TOKEN",
            "The webhook token of --notify discord://WEBHOOK_ID (else the file AGG_DISCORD_TOKEN_FILE"
                + " names); AGG_DISCORD_URL replaces https://discord.com."
        ),
        ("AGG_HOME", "The folder of the database (default $XDG_DATA_HOME/agg or ~/.local/share/agg)."),
        (
            "AGG_CONFIG",
            "The config file (default $XDG_CONFIG_HOME/agg/config.json or"
                + " ~/.config/agg/config.json); see 'agg config --help'."
        ),
        ("XDG_CONFIG_HOME", "Where the config file is looked for when AGG_CONFIG is unset."),
        ("XDG_DATA_HOME", "Where the database lives when AGG_HOME is unset."),
        ("HOME", "The fallback for both: ~/.config/agg and ~/.local/share/agg."),
        (
            "AGG_DEBUG=1",
            "Print notes that change nothing in the answer on stderr (a quote cache write skipped"
                + " because another agg held the database)."
        ),
        ("NO_COLOR", "Turn colour off."),
        ("TERM", "TERM=dumb turns colour and watch's redrawing off."),
        ("COLUMNS", "The table width when the terminal does not say (and for pipes)."),
        ("TMPDIR", "Where agg stages the alert an --on-alert program reads on its standard input (default /tmp)."),
    ]

    /// The ENVIRONMENT section, each entry wrapped under its name.
    static var environmentText: String {
        let width = environment.map(\.name.count).max() ?? 0
        return environment.map { name, help in
            let lines = wrap(help, width: 76 - width)
            let indent = String(repeating: " ", count: width + 4)
            return "  " + name + String(repeating: " ", count: width - name.count + 2)
                + lines.joined(separator: "\n" + indent)
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    /// `agg COMMAND --help`: usage, summary, discussion, the venues that can answer (from
    /// `registry`), options and examples, all from the command's spec.
    package static func command(_ spec: CommandSpec, registry: AdapterRegistry) -> String {
        var text = "USAGE: \(spec.programUsage)\n\n\(spec.summary)\n"
        if let discussion = spec.discussion { text += "\n" + discussion + "\n" }
        if let capability = spec.venueCapability {
            text += "\nVENUES (registered, with \(capability.title)):\n" + venues(capability, registry: registry)
        }
        text += "\nOPTIONS:\n" + optionLines(spec) + "\nEXAMPLES:\n"
        return text + spec.examples.map { "  " + $0 }.joined(separator: "\n")
    }

    /// One aligned line per option: `  -e, --exchange ID[,ID...]  Ask only these venues.`
    static func optionLines(_ spec: CommandSpec) -> String {
        let width = spec.options.map(\.label.count).max() ?? 0
        return spec.options.map { option in
            "  " + option.label + String(repeating: " ", count: width - option.label.count + 2)
                + option.help + (option.allowedValues.map { " (\($0.joined(separator: ", ")))" } ?? "") + "\n"
        }.joined()
    }

    /// docs/commands.md: every command's usage, summary, discussion, options and examples, from
    /// the same specs as `--help` (without the registry's venue lists, which depend on the build).
    package static func reference(commands: [CommandSpec]) -> String {
        var text = """
            # Command reference

            Generated from the command specs by `Tools/update-docs.sh`; a test fails when this file
            is stale. `agg COMMAND --help` prints the same text, with the registered venues.

            """
        for spec in commands {
            text += "\n## agg \(spec.name)\n\n\(spec.summary)\n\n```\nagg \(spec.usage)\n```\n"
            if let discussion = spec.discussion { text += "\n" + discussion + "\n" }
            text += "\nOptions:\n\n```\n" + optionLines(spec) + "```\n\nExamples:\n\n```\n"
            text += spec.examples.joined(separator: "\n") + "\n```\n"
        }
        text += "\n## Environment\n\n```\n" + environmentText + "\n```\n"
        return text
    }

    /// One line per registered venue with `capability`, with what its limits allow.
    package static func venues(_ capability: Capability, registry: AdapterRegistry) -> String {
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
