import AggCore
import AggJSON
import FoundationEssentials

/// `agg config`: where the config file is, and the settings in effect.
public enum ConfigCommand: Command {
    public static let spec = CommandSpec(
        name: "config",
        summary: "Show the config file's path, or the settings in effect as JSON.",
        arguments: "path|show",
        options: [],
        positionals: (1, 1),
        examples: ["agg config path", "agg config show"],
        discussion: """
            The file is $AGG_CONFIG when set, else $XDG_CONFIG_HOME/agg/config.json, else
            ~/.config/agg/config.json. Every key is optional:
              {"exchanges":["bithumb"],"quote":"KRW","palette":"kr","timeout":10,
               "baseURLs":{"bithumb":"http://127.0.0.1:8080/bithumb"},"format":"table",
               "maxStale":"10m","venueSettings":{"bithumb":{"api":"v1"}}}
            venueSettings holds each venue's own choices (see docs/venues.md); a setting or a value
            the venue does not have is an error.
            A setting's value is written as its flag takes it ("timeout": "10s" or 10) and checked
            by the same parser. Precedence, highest first: command-line flags; the environment
            (AGG_<ID>_URL over baseURLs, AGG_TIMEOUT and the other AGG_<SETTING> variables,
            AGG_OFFLINE, NO_COLOR); the config file; built-in defaults. A malformed file or
            variable stops every command with exit code 78, naming the file and JSON path or the
            variable; unknown keys are ignored with a one-line warning.
            """,
        positionalChoices: ["path", "show"]
    )

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        switch arguments.positionals[0].lowercased() {
        case "path":
            guard let path = ConfigurationLoader.path(environment: context.environment) else {
                throw .usage("no config file location: set AGG_CONFIG, XDG_CONFIG_HOME or HOME")
            }
            context.console.print(path)
            if !FileManager.default.fileExists(atPath: path) {
                context.console.printError("agg: no file there yet; built-in defaults are in effect")
            }
            return .success
        case "show":
            context.console.print(effective(context).serialized(pretty: true))
            return .success
        case let other:
            throw .usage("unknown config action '\(other)'; expected path or show")
        }
    }

    /// `agg config path` works with a malformed config file: it says where the file is.
    public static func needsConfiguration(_ arguments: ParsedArguments) -> Bool {
        arguments.positionals.first?.lowercased() != "path"
    }

    /// The settings in effect when no flag is given, key by key of the config file (from
    /// `Settings.file`): `null` where agg decides per run (the format by terminal, the quote
    /// currency by venue). A secret (a store URL's password) shows as `***`.
    static func effective(_ context: CLIContext) -> JSONValue {
        let settings = context.settings(ParsedArguments())
        var members = [JSONObject.Member(key: "path", value: JSONOutput.string(context.configuration.path))]
        for entry in Settings.file {
            switch entry {
            case .setting(let setting):
                guard let key = setting.key else { continue }
                members.append(JSONObject.Member(key: key, value: setting.effectiveJSON(settings)))
            case .baseURLs:
                let baseURLs = context.registry.descriptors.map { descriptor in
                    JSONObject.Member(
                        key: descriptor.id,
                        value: .string(context.configuration.baseURL(for: descriptor, environment: context.environment))
                    )
                }
                members.append(JSONObject.Member(key: "baseURLs", value: .object(JSONObject(baseURLs))))
            case .venueSettings:
                members.append(
                    JSONObject.Member(key: "venueSettings", value: .object(JSONObject(venueSettings(context)))))
            }
        }
        return .object(JSONObject(members))
    }

    /// Every venue setting in effect, the file's value or the default, for the venues that have
    /// settings.
    static func venueSettings(_ context: CLIContext) -> [JSONObject.Member] {
        context.registry.descriptors.filter { !$0.settings.isEmpty }.map { descriptor in
            let chosen = context.configuration.venueSettings[descriptor.id] ?? [:]
            let values = descriptor.settings.map { setting in
                JSONObject.Member(key: setting.name, value: .string(chosen[setting.name] ?? setting.defaultValue))
            }
            return JSONObject.Member(key: descriptor.id, value: .object(JSONObject(values)))
        }
    }
}
