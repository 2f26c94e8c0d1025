import AggCore
import AggJSON
import FoundationEssentials

/// The user's settings from the config file: defaults that flags override.
///
/// Precedence, highest first: command-line flags; then the environment (`AGG_<ID>_URL`,
/// `AGG_OFFLINE`, `NO_COLOR`); then this file; then the built-in defaults. Every field is
/// optional: an absent field leaves the built-in default in force.
///
/// ```json
/// {"exchanges":["bithumb"],"quote":"KRW","palette":"kr","timeout":10,
///  "baseURLs":{"bithumb":"http://127.0.0.1:8080/bithumb"},"format":"table","maxStale":"10m",
///  "venueSettings":{"bithumb":{"api":"v1"}}}
/// ```
public struct Configuration: Sendable, Equatable {
    /// The venues asked when `--exchange` is not given.
    public var exchanges: [String]?
    /// The quote currency for bare symbols when `--quote` is not given.
    public var quote: String?
    /// Up/down colours when `--palette` is not given.
    public var palette: TextStyle.Palette?
    /// Seconds before giving up on a venue when `--timeout` is not given.
    public var timeout: Double?
    /// Base URLs by adapter id; `AGG_<ID>_URL` overrides them.
    public var baseURLs: [String: String]
    /// The output format when `--format` is not given.
    public var format: OutputFormat?
    /// `agg quote`'s `--max-stale` in seconds when the flag is not given.
    public var maxStale: Int64?
    /// Where the history goes when `--store` is not given (a PostgreSQL URL or a SQLite path).
    public var store: HistoryStoreLocation?
    /// Each venue's own settings (`AdapterDescriptor.settings`) by adapter id, then by name.
    public var venueSettings: [String: [String: String]]
    /// The file the settings were read from; `nil` when there was none.
    public var path: String?
    /// One-line notes about keys that were ignored.
    public var warnings: [String]

    /// No file: every built-in default in force.
    public static let none = Configuration()

    public init(
        exchanges: [String]? = nil, quote: String? = nil, palette: TextStyle.Palette? = nil,
        timeout: Double? = nil, baseURLs: [String: String] = [:], format: OutputFormat? = nil,
        maxStale: Int64? = nil, store: HistoryStoreLocation? = nil,
        venueSettings: [String: [String: String]] = [:], path: String? = nil, warnings: [String] = []
    ) {
        self.exchanges = exchanges
        self.quote = quote
        self.palette = palette
        self.timeout = timeout
        self.baseURLs = baseURLs
        self.format = format
        self.maxStale = maxStale
        self.store = store
        self.venueSettings = venueSettings
        self.path = path
        self.warnings = warnings
    }

    /// The keys the file may hold.
    public static let keys = [
        "exchanges", "quote", "palette", "timeout", "baseURLs", "format", "maxStale", "store", "venueSettings",
    ]

    /// The base URL for `descriptor`: `AGG_<ID>_URL`, else the file's `baseURLs`, else the
    /// adapter's default.
    public func baseURL(for descriptor: AdapterDescriptor, environment: [String: String]) -> String {
        if let override = environment[descriptor.baseURLVariable], !override.isEmpty { return override }
        return baseURLs[descriptor.id] ?? descriptor.defaultBaseURL
    }
}

/// A config file that cannot be used: names the file and what is wrong with it (exit 78).
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong: a JSON syntax error with its byte offset, or a JSON path and the problem.
    public var problem: String

    /// Set when the setting came from an environment variable rather than the file.
    public var variable: String?

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// A malformed environment variable (`AGG_BITHUMB_URL`), checked as the file's settings are.
    public init(variable: String, problem: String) {
        self.path = ""
        self.variable = variable
        self.problem = problem
    }

    public var description: String {
        variable.map { "environment variable \($0): \(problem)" } ?? "config file \(path): \(problem)"
    }
}

/// Finds and reads the config file.
public enum ConfigurationLoader {
    /// The file to read: `$AGG_CONFIG` when set; else `$XDG_CONFIG_HOME/agg/config.json` when
    /// that is an absolute path; else `$HOME/.config/agg/config.json`; `nil` without a home.
    public static func path(environment: [String: String]) -> String? {
        if let explicit = environment["AGG_CONFIG"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("agg/config.json").path
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".config/agg/config.json").path
        }
        return nil
    }

    /// The settings in effect: read from `path(environment:)`, or `.none` when the default file
    /// does not exist. A file named by `AGG_CONFIG` must exist.
    public static func load(environment: [String: String], registry: AdapterRegistry)
        throws(ConfigurationError) -> Configuration
    {
        guard let path = path(environment: environment) else { return .none }
        guard let data = FileManager.default.contents(atPath: path) else {
            let explicit = !(environment["AGG_CONFIG"] ?? "").isEmpty
            if explicit || FileManager.default.fileExists(atPath: path) {
                throw ConfigurationError(
                    path: path, problem: explicit ? "cannot read the file named by AGG_CONFIG" : "cannot read it")
            }
            return .none
        }
        return try parse(Array(data), path: path, registry: registry)
    }

    /// The settings in `bytes`, checked field by field.
    public static func parse(_ bytes: [UInt8], path: String, registry: AdapterRegistry)
        throws(ConfigurationError) -> Configuration
    {
        let root: JSONCursor
        do throws(JSONSyntaxError) {
            root = JSONCursor(try JSONParser.parse(bytes))
        } catch {
            throw ConfigurationError(path: path, problem: error.description)
        }
        // A name given twice would mean the first to agg and maybe the last to its author.
        if let duplicate = root.value?.firstDuplicateKey() {
            throw ConfigurationError(path: path, problem: duplicate.description)
        }
        do throws(JSONDecodingError) {
            return try decode(root, path: path, registry: registry)
        } catch {
            throw ConfigurationError(path: path, problem: error.description)
        }
    }

    private static func decode(_ root: JSONCursor, path: String, registry: AdapterRegistry)
        throws(JSONDecodingError) -> Configuration
    {
        var configuration = Configuration(path: path)
        let members = try root.members()
        let unknown = members.map(\.key).filter { !Configuration.keys.contains($0) }
        if !unknown.isEmpty {
            let described = unknown.map { key in
                Suggestion.closest(to: key, among: Configuration.keys).map { "'\(key)' (did you mean '\($0)'?)" }
                    ?? "'\(key)'"
            }
            configuration.warnings.append(
                "config file \(path): ignoring unknown key\(unknown.count == 1 ? "" : "s") "
                    + described.joined(separator: ", "))
        }
        let exchanges = root["exchanges"]
        if exchanges.isPresent {
            var ids: [String] = []
            for element in try exchanges.elements() {
                let id = try element.string().lowercased()
                guard registry.descriptor(id: id) != nil else {
                    throw element.failure("unknown exchange '\(id)'; known: \(registry.ids.joined(separator: ", "))")
                }
                if !ids.contains(id) { ids.append(id) }
            }
            guard !ids.isEmpty else { throw exchanges.failure("name at least one exchange, or leave the key out") }
            configuration.exchanges = ids
        }
        let quote = root["quote"]
        if quote.isPresent {
            let text = try quote.string()
            guard let code = try? AssetCode.validate(text) else {
                throw quote.failure("'\(text)' is not a currency code (letters and digits, such as KRW)")
            }
            configuration.quote = code
        }
        configuration.palette = try choice(root["palette"], TextStyle.Palette.self)
        configuration.format = try choice(root["format"], OutputFormat.self)
        let timeout = root["timeout"]
        if timeout.isPresent {
            guard case .number(let text)? = timeout.value, let seconds = Double(text), seconds > 0,
                seconds <= NetworkOptions.maximumTimeout
            else {
                throw timeout.failure(
                    "expected a number of seconds above 0 and at most \(Int(NetworkOptions.maximumTimeout))")
            }
            configuration.timeout = seconds
        }
        let maxStale = root["maxStale"]
        if maxStale.isPresent {
            let text: String
            switch maxStale.value {
            case .number(let number)?: text = number
            case .string(let string)?: text = string
            default: text = ""
            }
            guard let seconds = DurationText.seconds(from: text) else {
                throw maxStale.failure("expected whole seconds (600) or a duration such as \"30s\", \"10m\" or \"1h\"")
            }
            configuration.maxStale = seconds
        }
        let store = root["store"]
        if store.isPresent {
            let text = try store.string()
            do throws(AggError) {
                configuration.store = try HistoryStoreLocation(text)
            } catch {
                throw store.failure(error.summary)
            }
        }
        let baseURLs = root["baseURLs"]
        if baseURLs.isPresent {
            for member in try baseURLs.members() {
                let url = try member.value.string()
                guard BaseURL.isValid(url) else { throw member.value.failure("expected \(BaseURL.requirement)") }
                let id = member.key.lowercased()
                if registry.descriptor(id: id) == nil {
                    configuration.warnings.append(
                        "config file \(path): ignoring baseURLs for unknown exchange '\(member.key)'")
                }
                configuration.baseURLs[id] = url
            }
        }
        configuration.venueSettings = try venueSettings(root["venueSettings"], path: path, registry: registry)
        configuration.warnings += unknownVenueWarnings(root["venueSettings"], path: path, registry: registry)
        return configuration
    }

    /// `venueSettings`: for each venue, values of the settings its adapter declares. A setting
    /// the venue does not have, or a value it does not take, is an error naming what it takes;
    /// a venue agg does not know is left out (and warned about).
    private static func venueSettings(_ cursor: JSONCursor, path: String, registry: AdapterRegistry)
        throws(JSONDecodingError) -> [String: [String: String]]
    {
        guard cursor.isPresent else { return [:] }
        var result: [String: [String: String]] = [:]
        for venue in try cursor.members() {
            guard let descriptor = registry.descriptor(id: venue.key.lowercased()) else { continue }
            var values: [String: String] = [:]
            for member in try venue.value.members() {
                guard let setting = descriptor.settings.first(where: { $0.name == member.key }) else {
                    let known = descriptor.settings.map(\.name)
                    throw member.value.failure(
                        "\(descriptor.id) has no setting '\(member.key)'"
                            + (known.isEmpty ? "" : "; its settings: \(known.joined(separator: ", "))"))
                }
                let value = try member.value.string()
                guard setting.values.contains(value) else {
                    throw member.value.failure(
                        "'\(value)' is not one of: \(setting.values.joined(separator: ", "))")
                }
                values[setting.name] = value
            }
            result[descriptor.id] = values
        }
        return result
    }

    /// One warning per venue in `venueSettings` that agg does not know.
    private static func unknownVenueWarnings(_ cursor: JSONCursor, path: String, registry: AdapterRegistry)
        -> [String]
    {
        guard let members = try? cursor.members() else { return [] }
        return members.filter { registry.descriptor(id: $0.key.lowercased()) == nil }.map {
            "config file \(path): ignoring venueSettings for unknown exchange '\($0.key)'"
        }
    }

    /// Checks every `AGG_<ID>_URL` that is set as the file's `baseURLs` are checked.
    public static func checkEnvironmentURLs(_ environment: [String: String], registry: AdapterRegistry)
        throws(ConfigurationError)
    {
        for descriptor in registry.descriptors {
            let name = descriptor.baseURLVariable
            guard let url = environment[name], !url.isEmpty, !BaseURL.isValid(url) else { continue }
            throw ConfigurationError(variable: name, problem: "expected \(BaseURL.requirement), got '\(url)'")
        }
    }

    /// A string that must be one of `T`'s raw values.
    private static func choice<T: RawRepresentable & CaseIterable>(_ cursor: JSONCursor, _ type: T.Type)
        throws(JSONDecodingError) -> T? where T.RawValue == String
    {
        guard cursor.isPresent else { return nil }
        let text = try cursor.string()
        guard let value = T(rawValue: text) else {
            throw cursor.failure(
                "'\(text)' is not one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
