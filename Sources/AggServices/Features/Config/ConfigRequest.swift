import AggCore
import AggOptions

/// What `agg config` was asked, checked before anything is read: where the config file is, or
/// the settings in effect.
package enum ConfigRequest: Sendable, Equatable {
    /// `agg config path`: the file's path (which need not exist yet).
    case path(String)
    /// `agg config show`: the settings in effect as JSON.
    case show

    /// - Throws: a usage error for an action other than `path` or `show`, or for `path` when
    ///   the environment names no place for the file.
    package init(_ arguments: ParsedArguments, environment: [String: String]) throws(AggError) {
        switch arguments.positionals.first?.lowercased() ?? "" {
        case "path":
            guard let path = ConfigurationLoader.path(environment: environment) else {
                throw .usage("no config file location: set AGG_CONFIG, XDG_CONFIG_HOME or HOME")
            }
            self = .path(path)
        case "show":
            self = .show
        case let other:
            throw .usage("unknown config action '\(other)'; expected path or show")
        }
    }
}
