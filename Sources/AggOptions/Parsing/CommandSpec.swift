import AggCore

/// A command-line option as the parser, help, completion and docs see it: `--exchange bithumb`,
/// `--exchange=bithumb`, `-e bithumb`, `-ebithumb`, or a flag such as `--offline`. Commands
/// declare options as typed `Option<Value>` or `Flag` values; this is their common shape.
package struct OptionSpec: Sendable {
    /// The long name without dashes (`exchange`).
    package var name: String
    package var short: Character?
    /// The placeholder shown in help (`ID[,ID...]`); `nil` for a flag that takes no value.
    var valueName: String?
    package var help: String
    /// The only values accepted, when the set is closed (`table`, `json`, `csv`).
    package var allowedValues: [String]?
    /// What shell completion offers for the value, beyond `allowedValues`.
    package var completion: ValueCompletion
    /// The built-in default in words, when a `Setting` declares the option: help's
    /// `(default: …)` is made from it.
    var defaultText: String?
    /// Parses one occurrence's text, given the value of the earlier occurrences (lists add up).
    package let parse: @Sendable (String, (any Sendable)?) throws(AggError) -> any Sendable

    package init(
        name: String, short: Character?, valueName: String?, help: String, allowedValues: [String]?,
        completion: ValueCompletion,
        parse: @escaping @Sendable (String, (any Sendable)?) throws(AggError) -> any Sendable
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.allowedValues = allowedValues
        self.completion = completion
        self.parse = parse
    }

    package var isFlag: Bool { valueName == nil }

    /// `-e, --exchange ID[,ID...]` as help lists it.
    package var label: String {
        (short.map { "-\($0), " } ?? "    ") + "--" + name + (valueName.map { " " + $0 } ?? "")
    }

    /// `[--format table|json|csv]` as a usage line shows it.
    var usageText: String {
        guard let valueName else { return "[--\(name)]" }
        return "[--\(name) \(allowedValues?.joined(separator: "|") ?? valueName)]"
    }
}

/// Something a command declares as an option: a typed `Option` or a `Flag`.
package protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// An option that takes a value, parsed into `Value` when the command line is parsed; a command
/// reads it as `arguments[Self.limit]`, so a misspelt option does not compile.
package struct Option<Value: Sendable>: OptionDeclaration {
    package private(set) var spec: OptionSpec
    package let parser: ValueParser<Value>

    /// - Parameters:
    ///   - value: the placeholder in help (`N`, `CUR`); closed sets show their values instead.
    ///   - combine: how repeated occurrences add up; by default the last one wins.
    package init(
        _ name: String, short: Character? = nil, value: String, help: String,
        completion: ValueCompletion = .none, parser: ValueParser<Value>,
        combine: (@Sendable (Value, Value) -> Value)? = nil
    ) {
        self.parser = parser
        spec = OptionSpec(
            name: name, short: short, valueName: value, help: help, allowedValues: parser.allowed,
            completion: completion
        ) { text, earlier throws(AggError) in
            let value = try Self.parse(text, name: name, parser: parser)
            if let combine, let earlier = earlier as? Value { return combine(earlier, value) }
            return value
        }
    }

    /// The value of `text`, or a usage error naming the option and what it expects.
    package func parse(_ text: String) throws(AggError) -> Value {
        try Self.parse(text, name: spec.name, parser: parser)
    }

    private static func parse(_ text: String, name: String, parser: ValueParser<Value>) throws(AggError) -> Value {
        if let value = try parser.parse(text) { return value }
        throw .usage(parser.refusal(text, naming: "--" + name))
    }

    /// This option as a `Setting` declares it: `help` (which ends in the generated default) in
    /// place of its help text, and the default in words.
    func declared(help: String, defaultText: String) -> Option {
        var copy = self
        copy.spec.help = help
        copy.spec.defaultText = defaultText
        return copy
    }
}

extension Option where Value == [String] {
    /// Comma-separated venue ids, repeatable: `-e bithumb,upbit -e binance`.
    package static func venues(_ name: String, short: Character?, help: String) -> Option {
        Option(
            name, short: short, value: "ID[,ID...]", help: help, completion: .exchangeIDs,
            parser: .list(of: .venueID, expected: "one or more venue ids, such as bithumb,upbit"), combine: +)
    }
}

/// An option without a value: given or not.
package struct Flag: OptionDeclaration {
    package let spec: OptionSpec

    package init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(
            name: name, short: short, valueName: nil, help: help, allowedValues: nil, completion: .none
        ) { _, _ in true }
    }
}

/// Values a shell completion script offers for an option whose values are not a fixed list.
package enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer (free text such as a number).
    case none
    /// The registered adapter ids.
    case exchangeIDs
}

/// The shape of a command: its name, what it does, its options and positional arguments, and
/// examples. Usage, `--help`, completion scripts and docs/commands.md are all made from it.
package struct CommandSpec: Sendable {
    package var name: String
    package var summary: String
    /// The positional arguments as usage shows them: `SYMBOL...`, `[BASE]`, `path|show`.
    package var arguments: String
    package var options: [OptionSpec]
    /// The fewest and most positional arguments (`nil`: no limit).
    package var positionals: (minimum: Int, maximum: Int?)
    var examples: [String]
    /// More words for `--help`, after the summary.
    var discussion: String?
    /// The words the first positional argument may be, when it is a closed set
    /// (`agg completion bash|zsh|fish`); shell completion offers them, matched in any case.
    package var positionalChoices: [String]
    /// For a command that asks one venue for this capability (candles, trades, order book):
    /// `--help` lists the registered venues that have it, with their limits, generated from
    /// the registry so that it cannot drift.
    var venueCapability: Capability?
    /// The program whose command this is, as usage, help and errors name it: `agg` (`agg quote`),
    /// or empty for a program that is its own command (`agg-bench`, whose spec is named so).
    package var program: String

    package init(
        name: String, summary: String, arguments: String, options: [any OptionDeclaration],
        positionals: (minimum: Int, maximum: Int?),
        examples: [String], discussion: String? = nil, positionalChoices: [String] = [],
        venueCapability: Capability? = nil, program: String = "agg"
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        let specs = options.map(\.spec)
        self.options = specs + (specs.contains { $0.name == "help" } ? [] : [CommonOptions.help.spec])
        self.positionals = positionals
        self.examples = examples
        self.discussion = discussion
        self.positionalChoices = positionalChoices
        self.venueCapability = venueCapability
        self.program = program
    }

    /// The command as errors name it: `agg quote`, or `agg-bench`.
    var invocation: String {
        program.isEmpty ? name : program + " " + name
    }

    /// The usage line with the program: `agg quote SYMBOL... [--exchange ID[,ID...]] ...`.
    var programUsage: String {
        program.isEmpty ? usage : program + " " + usage
    }

    /// The text of `--help` (usage, summary, discussion, the venues of `registry` that can
    /// answer, options and examples), for a program that parses its own command line with this
    /// spec: agg's commands print it, and so does `agg-bench --help`.
    package func helpText(registry: AdapterRegistry) -> String {
        Help.command(self, registry: registry)
    }

    /// The usage line after `agg `, made from the arguments and every option but `--help`:
    /// `quote SYMBOL... [--exchange ID[,ID...]] ... [--format table|json|csv]`.
    package var usage: String {
        ([name] + (arguments.isEmpty ? [] : [arguments]) + options.filter { $0.name != "help" }.map(\.usageText))
            .joined(separator: " ")
    }

    /// The option named `name`, long or short.
    package func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    package func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }
}
