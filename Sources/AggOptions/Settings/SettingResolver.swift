import AggCore
import AggJSON

/// Where a setting's value came from.
package enum SettingSource: Sendable, Equatable {
    case flag, environment, file, builtIn
}

/// The one place that applies a setting's precedence: its flag, else its environment variable,
/// else the config file, else its built-in default.
///
/// The environment's values are checked once, when the config file is loaded
/// (`checkEnvironment`), so that a bad one stops the run with exit 78 before any command works;
/// here a value that does not parse is passed over.
package struct SettingResolver: Sendable {
    package var arguments: ParsedArguments
    package var environment: [String: String]
    package var configuration: Configuration
    package var registry: AdapterRegistry

    package init(
        arguments: ParsedArguments = ParsedArguments(), environment: [String: String],
        configuration: Configuration, registry: AdapterRegistry
    ) {
        self.arguments = arguments
        self.environment = environment
        self.configuration = configuration
        self.registry = registry
    }

    /// The value the flag, the environment or the file set, and which; `nil` and `.builtIn`
    /// when none did.
    package func resolve<Value, BuiltIn>(_ setting: Setting<Value, BuiltIn>) -> (value: Value?, source: SettingSource) {
        if let value = setting.readFlag(arguments) { return (value, .flag) }
        if let variable = setting.variable, let text = environment[variable], !text.isEmpty,
            case .success(let value) = setting.parse(text, registry: registry)
        {
            return (value, .environment)
        }
        if let value = configuration[setting] { return (value, .file) }
        return (nil, .builtIn)
    }

    /// The value in effect.
    package func value<Value>(_ setting: Setting<Value, Value>) -> Value {
        resolve(setting).value ?? setting.builtIn
    }

    /// The value in effect; `nil` when agg decides per run (as the setting's default says).
    package func value<Value>(_ setting: Setting<Value, DecidedPerRun>) -> Value? {
        resolve(setting).value
    }

    /// Checks the environment variable of every setting that is set, with the flag's grammar.
    package static func checkEnvironment(_ environment: [String: String], registry: AdapterRegistry)
        throws(ConfigurationError)
    {
        for setting in Settings.all {
            guard let variable = setting.variable, let text = environment[variable], !text.isEmpty else { continue }
            if case .failure(let problem) = setting.check(text, registry: registry) {
                throw ConfigurationError(variable: variable, problem: problem.message)
            }
        }
    }
}

extension ParsedArguments {
    /// The value `setting`'s flag was given, when it was (not the setting in effect: see
    /// `SettingResolver`).
    package func flag<Value, BuiltIn>(_ setting: Setting<Value, BuiltIn>) -> Value? {
        setting.readFlag(self)
    }
}

extension ParsedArguments {
    /// The value in effect of a setting that only its flag sets (a command's own, such as
    /// `--limit`): the flag's value, else the built-in default, through `SettingResolver`.
    package func value<Value>(_ setting: Setting<Value, Value>) -> Value {
        assert(setting.key == nil && setting.variable == nil, "\(setting.flagName) is resolved with the environment")
        return SettingResolver(arguments: self, environment: [:], configuration: .none, registry: AdapterRegistry([]))
            .value(setting)
    }
}
