import AggCore
import AggJSON
import FoundationEssentials

/// The user's settings from the config file: defaults that flags and the environment override.
///
/// Precedence, highest first: command-line flags; then the environment (`AGG_<ID>_URL` and
/// each setting's variable, such as `AGG_TIMEOUT`); then this file; then the built-in defaults
/// (`SettingResolver` applies it). Every field is optional: an absent field leaves the default
/// in force. A setting's value is written as its flag takes it (`"timeout": "10s"` or `10`).
///
/// ```json
/// {"exchanges":["bithumb"],"quote":"KRW","palette":"kr","timeout":10,
///  "baseURLs":{"bithumb":"http://127.0.0.1:8080/bithumb"},"format":"table","maxStale":"10m",
///  "venueSettings":{"bithumb":{"api":"v1"}}}
/// ```
package struct Configuration: Sendable {
    /// Each setting's value by its key, parsed by the setting's flag parser (`Settings`).
    private var values: [String: any Sendable] = [:]
    /// Base URLs by adapter id; `AGG_<ID>_URL` overrides them.
    package var baseURLs: [String: String]
    /// Each venue's own settings (`AdapterDescriptor.settings`) by adapter id, then by name.
    package var venueSettings: [String: [String: String]]
    /// Each venue's fee overrides (`venueSettings.<id>.takerFee`, `.withdrawalFees`) by adapter id.
    package var feeOverrides: [String: VenueFeeOverrides] = [:]
    /// The file the settings were read from; `nil` when there was none.
    package var path: String?
    /// One-line notes about keys that were ignored.
    package var warnings: [String]

    /// No file: every built-in default in force.
    package static let none = Configuration()

    package init(
        baseURLs: [String: String] = [:], venueSettings: [String: [String: String]] = [:], path: String? = nil,
        warnings: [String] = []
    ) {
        self.baseURLs = baseURLs
        self.venueSettings = venueSettings
        self.path = path
        self.warnings = warnings
    }

    /// The file's value of `setting`, when it sets it.
    package subscript<Value, BuiltIn>(setting: Setting<Value, BuiltIn>) -> Value? {
        get { setting.key.flatMap { values[$0] } as? Value }
        set { if let key = setting.key { values[key] = newValue } }
    }

    /// Sets the value of the setting with `key`, already parsed by it.
    package mutating func set(_ value: any Sendable, key: String) {
        values[key] = value
    }

    /// The venues asked when `--exchange` is not given.
    package var exchanges: [String]? { self[Settings.exchanges] }
    /// The quote currency for bare symbols when `--quote` is not given.
    package var quote: String? { self[Settings.quote] }
    /// Up/down colours when `--palette` is not given.
    package var palette: TextStyle.Palette? { self[Settings.palette] }
    /// Seconds before giving up on a venue when `--timeout` is not given.
    package var timeout: Double? { self[Settings.timeout] }
    /// The output format when `--format` is not given.
    package var format: OutputFormat? { self[Settings.format] }
    /// `agg quote`'s `--max-stale` in seconds when the flag is not given.
    package var maxStale: Int64? { self[Settings.maxStale] }
    /// Seconds before a quote is shown stale when `--stale-after` is not given.
    package var staleAfter: Int64? { self[Settings.staleAfter] }
    /// Where the history goes when `--store` is not given (a PostgreSQL URL or a SQLite path).
    package var store: HistoryStoreLocation? { self[Settings.store] }

    /// The keys the file may hold: each setting's, then the per-venue maps.
    package static let keys = Settings.all.compactMap(\.key) + ["baseURLs", "venueSettings"]

    /// The base URL for `descriptor`: `AGG_<ID>_URL`, else the file's `baseURLs`, else the
    /// adapter's default.
    package func baseURL(for descriptor: AdapterDescriptor, environment: [String: String]) -> String {
        if let override = environment[descriptor.baseURLVariable], !override.isEmpty { return override }
        return baseURLs[descriptor.id] ?? descriptor.defaultBaseURL
    }
}

/// A config file that cannot be used: names the file and what is wrong with it (exit 78).
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What is wrong: a JSON syntax error with its byte offset, or a JSON path and the problem.
    package var problem: String

    /// Set when the setting came from an environment variable rather than the file.
    package var variable: String?

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// A malformed environment variable (`AGG_BITHUMB_URL`), checked as the file's settings are.
    package init(variable: String, problem: String) {
        self.path = ""
        self.variable = variable
        self.problem = problem
    }

    package var description: String {
        variable.map { "environment variable \($0): \(problem)" } ?? "config file \(path): \(problem)"
    }
}

/// Finds and reads the config file.
package enum ConfigurationLoader {
    /// The file to read: `$AGG_CONFIG` when set; else `$XDG_CONFIG_HOME/agg/config.json` when
    /// that is an absolute path; else `$HOME/.config/agg/config.json`; `nil` without a home.
    package static func path(environment: [String: String]) -> String? {
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
    package static func load(environment: [String: String], registry: AdapterRegistry)
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
    package static func parse(_ bytes: [UInt8], path: String, registry: AdapterRegistry)
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
        for setting in Settings.all {
            guard let key = setting.key, root[key].isPresent else { continue }
            configuration.set(try value(of: setting, at: root[key], registry: registry), key: key)
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
        (configuration.venueSettings, configuration.feeOverrides) = try venueSettings(
            root["venueSettings"], path: path, registry: registry)
        configuration.warnings += unknownVenueWarnings(root["venueSettings"], path: path, registry: registry)
        return configuration
    }

    /// `venueSettings`: for each venue, values of the settings its adapter declares, and the
    /// user's fees (`VenueFeeOverrides`). A setting the venue does not have, or a value it does
    /// not take, is an error naming what it takes; a venue agg does not know is left out (and
    /// warned about).
    private static func venueSettings(_ cursor: JSONCursor, path: String, registry: AdapterRegistry)
        throws(JSONDecodingError) -> ([String: [String: String]], [String: VenueFeeOverrides])
    {
        guard cursor.isPresent else { return ([:], [:]) }
        var result: [String: [String: String]] = [:]
        var fees: [String: VenueFeeOverrides] = [:]
        for venue in try cursor.members() {
            guard let descriptor = registry.descriptor(id: venue.key.lowercased()) else { continue }
            var values: [String: String] = [:]
            var overrides = VenueFeeOverrides()
            for member in try venue.value.members() {
                if VenueFeeOverrides.keys.contains(member.key) {
                    try overrides.read(key: member.key, value: member.value)
                    continue
                }
                guard let setting = descriptor.settings.first(where: { $0.name == member.key }) else {
                    let known = descriptor.settings.map(\.name) + VenueFeeOverrides.keys.sorted()
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
            if overrides != VenueFeeOverrides() { fees[descriptor.id] = overrides }
        }
        return (result, fees)
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
    package static func checkEnvironmentURLs(_ environment: [String: String], registry: AdapterRegistry)
        throws(ConfigurationError)
    {
        for descriptor in registry.descriptors {
            let name = descriptor.baseURLVariable
            guard let url = environment[name], !url.isEmpty, !BaseURL.isValid(url) else { continue }
            throw ConfigurationError(variable: name, problem: "expected \(BaseURL.requirement), got '\(url)'")
        }
    }

    /// The value of `setting` at `cursor`, written as its flag takes it: a string or a number
    /// (`"10s"`, `10`), or for a list (`exchanges`) an array of them; refused with the flag's
    /// words at the JSON path.
    private static func value(of setting: any SettingDescription, at cursor: JSONCursor, registry: AdapterRegistry)
        throws(JSONDecodingError) -> any Sendable
    {
        var text: String
        if setting.takesList {
            var items: [String] = []
            for element in try cursor.elements() {
                let item = try element.string()
                if case .failure(let problem) = setting.check(item, registry: registry) {
                    throw element.failure(problem.message)
                }
                items.append(item)
            }
            guard !items.isEmpty else { throw cursor.failure("name at least one exchange, or leave the key out") }
            text = items.joined(separator: ",")
        } else {
            text = try cursor.text()
        }
        switch setting.check(text, registry: registry) {
        case .success(let value): return value
        case .failure(let problem): throw cursor.failure(problem.message)
        }
    }
}
