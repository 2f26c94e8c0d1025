/// What a source is and can do, as plain data.
public struct AdapterDescriptor: Sendable, Equatable {
    /// The stable id used on the command line and in output (`bithumb`).
    public var id: String
    public var displayName: String
    /// ISO 3166 country code of the operator (`KR`).
    public var country: String
    /// The quote currency of its main markets (`KRW`, `USDT`, `USD`).
    public var homeCurrency: String
    /// Every quote currency the adapter can ask for.
    public var quoteCurrencies: [String]
    public var capabilities: Set<Capability>
    /// The sustained request rate the venue allows from one address.
    public var requestsPerSecond: Double
    /// The base URL, without a trailing slash; `AGG_<ID>_URL` overrides it.
    public var defaultBaseURL: String
    /// Who must be credited wherever the data is shown, if the provider asks for it.
    public var attribution: String?

    public init(
        id: String, displayName: String, country: String, homeCurrency: String,
        quoteCurrencies: [String],
        capabilities: Set<Capability>, requestsPerSecond: Double, defaultBaseURL: String,
        attribution: String? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.country = country
        self.homeCurrency = homeCurrency
        self.quoteCurrencies = quoteCurrencies
        self.capabilities = capabilities
        self.requestsPerSecond = requestsPerSecond
        self.defaultBaseURL = defaultBaseURL
        self.attribution = attribution
    }

    /// Whether the adapter can do `capability`.
    public func supports(_ capability: Capability) -> Bool {
        capabilities.contains(capability)
    }

    /// The name of the environment variable that overrides the base URL: `AGG_BITHUMB_URL`.
    public var baseURLVariable: String {
        "AGG_" + id.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + "_URL"
    }
}
