import AggCore
import AggJSON

/// The built-in default of a setting that agg decides on each run rather than fixing once (the
/// output format by whether standard output is a terminal, the quote currency by venue), in
/// words for help, `agg config show` and the docs.
package struct DecidedPerRun: Sendable {
    package var description: String
    /// What `agg config show` prints for it: `null` unless the decision is known before the run
    /// (every registered venue).
    package var json: @Sendable (AdapterRegistry) -> JSONValue

    package init(_ description: String, json: @escaping @Sendable (AdapterRegistry) -> JSONValue = { _ in .null }) {
        self.description = description
        self.json = json
    }
}

/// One setting, declared once: its flag, its config-file key, its environment variable, its
/// built-in default, the parser every source's text goes through, and its help. The help's
/// `(default: …)`, `agg config show` and docs/configuration.md's table are all made from it.
///
/// `BuiltIn` is `Value` when the default is a value (`--timeout`'s 10 s) and `DecidedPerRun`
/// when agg decides per run; `SettingResolver` answers a `Value` for the first kind and a
/// `Value?` for the second, so that no caller restates a default.
package struct Setting<Value: Sendable, BuiltIn: Sendable>: OptionDeclaration {
    /// The flag, as commands declare it; its help ends in the generated `(default: …)`.
    package let flag: any OptionDeclaration
    /// The flag's value in parsed arguments, when it was given.
    let readFlag: @Sendable (ParsedArguments) -> Value?
    /// The grammar of the flag, also applied to the environment variable and the file.
    package let parser: ValueParser<Value>
    /// The config file's key, when the file may set it.
    package let key: String?
    /// The environment variable, when one may set it.
    package let variable: String?
    package let builtIn: BuiltIn
    /// The built-in default in words (`10s`, `each venue's home currency`).
    package let builtInText: String
    /// What it does, in the words help starts with (`Give up on a venue after this long`).
    package let summary: String
    /// Whether the value is a secret: an error then never repeats it.
    package let isSecret: Bool
    /// The value as `agg config show` prints it.
    package let json: @Sendable (Value) -> JSONValue
    /// A check of a value from the environment or the file against the registry (a venue id
    /// that exists), which may also tidy the value; the message names what is wrong.
    package let check: @Sendable (Value, AdapterRegistry) -> Result<Value, SettingProblem>

    /// The flag's long name with its dashes (`--timeout`).
    package var flagName: String { "--" + flag.spec.name }
}

/// A value a setting's source gave that cannot be used, in words without the source's name
/// (the caller adds the flag, the variable or the file and JSON path).
package struct SettingProblem: Error, Sendable, Equatable {
    package var message: String
}

extension Setting {
    fileprivate init(
        option: Option<Value>, help: String, key: String?, variable: String?, builtIn: BuiltIn,
        builtInText: String, isSecret: Bool, json: @escaping @Sendable (Value) -> JSONValue,
        check: (@Sendable (Value, AdapterRegistry) -> Result<Value, SettingProblem>)?
    ) {
        let also = [variable, key.map { "the config file's \($0)" }].compactMap { $0 }
        let sources = also.isEmpty ? "" : "; also " + also.joined(separator: " or ")
        let flag = option.declared(help: help + " (default: \(builtInText)\(sources)).", defaultText: builtInText)
        self.flag = flag
        self.readFlag = { $0[flag] }
        self.parser = option.parser
        self.key = key
        self.variable = variable
        self.builtIn = builtIn
        self.builtInText = builtInText
        self.summary = help
        self.isSecret = isSecret
        self.json = json
        self.check = check ?? { value, _ in .success(value) }
    }

    /// What commands list among their options: the flag, with the generated help.
    package var spec: OptionSpec { flag.spec }
}

extension Setting where BuiltIn == Value {
    /// A setting whose built-in default is `builtIn`, shown as `shown(builtIn)` in help.
    ///
    /// - Parameter help: what the flag does, without a final period or a default.
    package init(
        _ option: Option<Value>, help: String, key: String? = nil, variable: String? = nil, builtIn: Value,
        shown: (Value) -> String, isSecret: Bool = false,
        json: @escaping @Sendable (Value) -> JSONValue = { .string(String(describing: $0)) },
        check: (@Sendable (Value, AdapterRegistry) -> Result<Value, SettingProblem>)? = nil
    ) {
        self.init(
            option: option, help: help, key: key, variable: variable, builtIn: builtIn,
            builtInText: shown(builtIn), isSecret: isSecret, json: json, check: check)
    }
}

extension Setting where BuiltIn == DecidedPerRun {
    /// A setting whose default agg decides per run, as `builtIn` says.
    package init(
        _ option: Option<Value>, help: String, key: String? = nil, variable: String? = nil,
        builtIn: DecidedPerRun, isSecret: Bool = false,
        json: @escaping @Sendable (Value) -> JSONValue = { .string(String(describing: $0)) },
        check: (@Sendable (Value, AdapterRegistry) -> Result<Value, SettingProblem>)? = nil
    ) {
        self.init(
            option: option, help: help, key: key, variable: variable, builtIn: builtIn,
            builtInText: builtIn.description, isSecret: isSecret, json: json, check: check)
    }
}

extension Setting where Value == Bool, BuiltIn == Bool {
    /// An on/off setting: `flag` turns it on, `variable` with one of `words` too; off by default.
    package init(flag: Flag, variable: String, words: [String]) {
        self.flag = flag
        self.readFlag = { $0[flag] ? true : nil }
        // Any other word leaves it off, as it always has (AGG_OFFLINE=0 is off).
        self.parser = ValueParser(expected: words.joined(separator: ", ")) { words.contains($0) }
        self.key = nil
        self.variable = variable
        self.builtIn = false
        self.builtInText = "off"
        self.summary = flag.spec.help
        self.isSecret = false
        self.json = { .bool($0) }
        self.check = { value, _ in .success(value) }
    }
}

/// What every setting shows of itself, whatever its value type: for `agg config show`, help
/// and docs/configuration.md's table.
package protocol SettingDescription: OptionDeclaration {
    var flagName: String { get }
    var key: String? { get }
    var variable: String? { get }
    var builtInText: String { get }
    var summary: String { get }
    var isSecret: Bool { get }
    /// Whether the file writes it as an array (`"exchanges": ["bithumb"]`), each element as
    /// the flag takes one item.
    var takesList: Bool { get }
    /// The value `resolver` finds, as `agg config show` prints it (`null` when agg decides
    /// per run).
    func effectiveJSON(_ resolver: SettingResolver) -> JSONValue
    /// Where `resolver` finds the value.
    func source(_ resolver: SettingResolver) -> SettingSource
    /// Parses `text` from the environment or the file, checked against `registry`.
    func check(_ text: String, registry: AdapterRegistry) -> Result<any Sendable, SettingProblem>
}

extension Setting: SettingDescription {
    package var takesList: Bool { Value.self == [String].self }

    package func effectiveJSON(_ resolver: SettingResolver) -> JSONValue {
        if let value = resolver.resolve(self).value { return json(value) }
        if let value = builtIn as? Value { return json(value) }
        return (builtIn as? DecidedPerRun)?.json(resolver.registry) ?? .null
    }

    package func source(_ resolver: SettingResolver) -> SettingSource {
        resolver.resolve(self).source
    }

    package func check(_ text: String, registry: AdapterRegistry) -> Result<any Sendable, SettingProblem> {
        parse(text, registry: registry).map { $0 as any Sendable }
    }

    /// `text` from the environment or the file, through the flag's parser and the check.
    package func parse(_ text: String, registry: AdapterRegistry) -> Result<Value, SettingProblem> {
        let parsed: Value?
        do throws(AggError) {
            parsed = try parser.parse(text)
        } catch {
            return .failure(SettingProblem(message: error.summary))
        }
        guard let parsed else { return .failure(SettingProblem(message: parser.refusal(text, secret: isSecret))) }
        return check(parsed, registry)
    }
}
