import AggCore

extension AdapterDescriptor {
    /// The descriptor's identity, reach, rate and credit as text, field by field: a test states
    /// them in one literal, and a difference shows which field differs.
    public var facts: [String: String] {
        [
            "id": id, "capabilities": capabilities.sorted().map(\.rawValue).joined(separator: ","),
            "quoteCurrencies": quoteCurrencies.joined(separator: ","), "homeCurrency": homeCurrency,
            "requestsPerSecond": "\(requestsPerSecond)", "defaultBaseURL": defaultBaseURL,
            "baseURLVariable": baseURLVariable, "attribution": attribution ?? "(none)",
        ]
    }
}
