/// A choice a venue's adapter offers the user, set in the config file's `venueSettings`
/// (`{"venueSettings":{"bithumb":{"api":"v1"}}}`): its name, the values it takes and the one in
/// force when none is set. The config file is checked against it before any adapter is made.
public struct AdapterSetting: Sendable, Equatable {
    /// The key under the venue's id (`api`).
    public var name: String
    /// Every value it takes.
    public var values: [String]
    /// The value when the config file sets none.
    public var defaultValue: String
    /// One line for the documentation and for errors.
    public var summary: String

    public init(name: String, values: [String], defaultValue: String, summary: String) {
        self.name = name
        self.values = values
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

extension AdapterEnvironment {
    /// The value of `setting` for this adapter: the config file's when it is one of the setting's
    /// values, else the default.
    public func value(of setting: AdapterSetting) -> String {
        guard let value = settings[setting.name], setting.values.contains(value) else { return setting.defaultValue }
        return value
    }
}
