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

    public init(
        _ name: String, short: Character? = nil, value: String? = nil, help: String,
        allowed: [String]? = nil
    ) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.allowedValues = allowed
    }

    public var isFlag: Bool { valueName == nil }
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

    public init(
        name: String, summary: String, usage: String, options: [OptionSpec],
        positionals: (minimum: Int, maximum: Int?),
        examples: [String], discussion: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + (options.contains { $0.name == "help" } ? [] : [CommonOptions.help])
        self.positionals = positionals
        self.examples = examples
        self.discussion = discussion
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
        help: "Ask only these venues (see `agg exchanges`).")
    public static let timeout = OptionSpec(
        "timeout", value: "SECONDS", help: "Give up on a venue after this long (default 10).")
    public static let offline = OptionSpec(
        "offline", help: "Answer from the recorded responses in Fixtures/ (also AGG_OFFLINE=1).")
    public static let color = OptionSpec(
        "color", value: "WHEN", help: "Colour output: auto, always or never.",
        allowed: ["auto", "always", "never"])
    public static let noColor = OptionSpec(
        "no-color", help: "Never colour output (as NO_COLOR does).")

    /// The options every network command takes.
    public static let network: [OptionSpec] = [format, timeout, offline, color, noColor]
}
