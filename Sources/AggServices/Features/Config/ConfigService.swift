import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg config`'s answer.
package enum ConfigReport: Sendable, Equatable {
    /// The config file's path, and whether a file is there.
    case path(String, exists: Bool)
    /// The settings in effect, key by key of the config file.
    case settings(JSONValue)
}

/// `agg config`'s use case: where the file is, and the settings in effect, from the
/// environment, the loaded config file and the registry (no terminal).
package struct ConfigService: Sendable {
    var environment: [String: String]
    var configuration: Configuration
    var registry: AdapterRegistry

    package func run(_ request: ConfigRequest) -> ConfigReport {
        switch request {
        case .path(let path): .path(path, exists: FileManager.default.fileExists(atPath: path))
        case .show: .settings(effective())
        }
    }

    /// The settings in effect when no flag is given, key by key of the config file (from
    /// `Settings.file`): `null` where agg decides per run (the format by terminal, the quote
    /// currency by venue). A secret (a store URL's password) shows as `***`.
    func effective() -> JSONValue {
        let settings = SettingResolver(environment: environment, configuration: configuration, registry: registry)
        var members = [JSONObject.Member(key: "path", value: JSONOutput.string(configuration.path))]
        for entry in Settings.file {
            switch entry {
            case .setting(let setting):
                guard let key = setting.key else { continue }
                members.append(JSONObject.Member(key: key, value: setting.effectiveJSON(settings)))
            case .baseURLs:
                let baseURLs = registry.descriptors.map { descriptor in
                    JSONObject.Member(
                        key: descriptor.id,
                        value: .string(configuration.baseURL(for: descriptor, environment: environment)))
                }
                members.append(JSONObject.Member(key: "baseURLs", value: .object(JSONObject(baseURLs))))
            case .venueSettings:
                members.append(JSONObject.Member(key: "venueSettings", value: .object(JSONObject(venueSettings()))))
            }
        }
        return .object(JSONObject(members))
    }

    /// Every venue setting in effect, the file's value or the default, for the venues that have
    /// settings, and the fees the file sets (`takerFee`, `withdrawalFees`), for the venues it
    /// sets them for.
    func venueSettings() -> [JSONObject.Member] {
        registry.descriptors.filter { !$0.settings.isEmpty || configuration.feeOverrides[$0.id] != nil }.map {
            descriptor in
            let chosen = configuration.venueSettings[descriptor.id] ?? [:]
            var values = descriptor.settings.map { setting in
                JSONObject.Member(key: setting.name, value: .string(chosen[setting.name] ?? setting.defaultValue))
            }
            if let fees = configuration.feeOverrides[descriptor.id] {
                if let rate = fees.takerFee {
                    values.append(JSONObject.Member(key: "takerFee", value: JSONOutput.decimal(rate)))
                }
                if !fees.withdrawalFees.isEmpty {
                    let entries = fees.withdrawalFees.sorted { $0.key < $1.key }.map {
                        JSONObject.Member(key: $0.key, value: JSONOutput.decimal($0.value))
                    }
                    values.append(JSONObject.Member(key: "withdrawalFees", value: .object(JSONObject(entries))))
                }
            }
            return JSONObject.Member(key: descriptor.id, value: .object(JSONObject(values)))
        }
    }

    package init(environment: [String: String], configuration: Configuration, registry: AdapterRegistry) {
        self.environment = environment
        self.configuration = configuration
        self.registry = registry
    }
}
