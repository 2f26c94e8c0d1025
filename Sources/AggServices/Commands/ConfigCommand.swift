import AggCore
import AggOptions

/// `agg config`: where the config file is, and the settings in effect.
package enum ConfigCommand {
    package static let spec = CommandSpec(
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
}
