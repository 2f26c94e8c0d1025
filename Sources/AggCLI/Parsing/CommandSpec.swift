import AggCore

/// A command-line option: `--exchange bithumb`, `--exchange=bithumb`, `-e bithumb`, or a flag
/// such as `--offline`.
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes (`exchange`).
    public var name: String
    public var short: Character?
    /// The placeholder shown in help (`ID[,ID...]`); `nil` for a flag that takes no value.
    public var valueName: String?
    public var help: String
    /// The only values accepted, when the set is closed (`table`, `json`, `csv`).
    public var allowedValues: [String]?
    /// What shell completion offers for the value, beyond `allowedValues`.
    public var completion: ValueCompletion

    public init(
        _ name: String, short: Character? = nil, value: String? = nil, help: String,
        allowed: [String]? = nil, completion: ValueCompletion = .none
    ) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.allowedValues = allowed
        self.completion = completion
    }

    public var isFlag: Bool { valueName == nil }
}

/// Values a shell completion script offers for an option whose values are not a fixed list.
public enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer (free text such as a number).
    case none
    /// The registered adapter ids.
    case exchangeIDs
}

/// The shape of a command: its name, what it does, its options and positional arguments, and
/// examples for `--help`.
public struct CommandSpec: Sendable {
    public var name: String
    public var summary: String
    /// The usage line after `agg `: `quote SYMBOL... [--exchange ID[,ID...]]`.
    public var usage: String
    public var options: [OptionSpec]
    /// The fewest and most positional arguments (`nil`: no limit).
    public var positionals: (minimum: Int, maximum: Int?)
    public var examples: [String]
    /// More words for `--help`, after the summary.
    public var discussion: String?
    /// The words the first positional argument may be, when it is a closed set
    /// (`agg completion bash|zsh|fish`); shell completion offers them.
    public var positionalChoices: [String]
    /// For a command that asks one venue for this capability (candles, trades, order book):
    /// `--help` lists the registered venues that have it, with their limits, generated from
    /// the registry so that it cannot drift.
    public var venueCapability: Capability?

    public init(
        name: String, summary: String, usage: String, options: [OptionSpec],
        positionals: (minimum: Int, maximum: Int?),
        examples: [String], discussion: String? = nil, positionalChoices: [String] = [],
        venueCapability: Capability? = nil
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + (options.contains { $0.name == "help" } ? [] : [CommonOptions.help])
        self.positionals = positionals
        self.examples = examples
        self.discussion = discussion
        self.positionalChoices = positionalChoices
        self.venueCapability = venueCapability
    }

    /// The option named `name`, long or short.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }
}

/// Options that several commands share, spelled once.
public enum CommonOptions {
    public static let help = OptionSpec("help", short: "h", help: "Show help for this command.")
    public static let format = OptionSpec(
        "format", short: "f", value: "FORMAT",
        help: "Output as table, json or csv (table on a terminal, json otherwise).",
        allowed: ["table", "json", "csv"])
    public static let exchange = OptionSpec(
        "exchange", short: "e", value: "ID[,ID...]",
        help: "Ask only these venues (see `agg exchanges`).", completion: .exchangeIDs)
    /// One venue, for commands that ask a single venue (candles, trades, book).
    public static let singleExchange = OptionSpec(
        "exchange", short: "e", value: "ID",
        help: "The venue to ask (default: the first suitable one in the config file).",
        completion: .exchangeIDs)
    public static let quote = OptionSpec(
        "quote", short: "q", value: "CUR",
        help: "Quote currency for bare symbols (default: config file, else each venue's home currency).")
    public static let timeout = OptionSpec(
        "timeout", value: "SECONDS", help: "Give up on a venue after this long (default 10).")
    public static let offline = OptionSpec(
        "offline", help: "Answer from the recorded responses in Fixtures/ (also AGG_OFFLINE=1).")
    public static let color = OptionSpec(
        "color", value: "WHEN", help: "Colour output: auto, always or never.",
        allowed: ["auto", "always", "never"])
    public static let noColor = OptionSpec(
        "no-color", help: "Never colour output (as NO_COLOR does).")
    public static let palette = OptionSpec(
        "palette", value: "NAME",
        help: "Up/down colours: standard (green up, red down) or kr (red up, blue down).",
        allowed: TextStyle.Palette.allCases.map(\.rawValue))

    /// `--refresh`: ask the FX source even when the stored snapshot is the latest it has.
    public static let refresh = OptionSpec(
        "refresh", help: "Ask the FX source even when today's stored rates are still current.")

    /// The options every network command takes.
    public static let network: [OptionSpec] = [format, timeout, offline, color, noColor, palette]
}
