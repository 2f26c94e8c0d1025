/// The adapters a program knows, by id. The executable fills it once at start, one line per
/// adapter; everything else receives it explicitly.
public struct AdapterRegistry: Sendable {
    private var types: [any ExchangeAdapter.Type] = []

    public init() {}

    /// Adds an adapter type. Registering an id twice replaces the earlier one.
    public mutating func register(_ type: any ExchangeAdapter.Type) {
        types.removeAll { $0.descriptor.id == type.descriptor.id }
        types.append(type)
    }

    /// Every descriptor, sorted by id.
    public var descriptors: [AdapterDescriptor] {
        types.map { $0.descriptor }.sorted { $0.id < $1.id }
    }

    /// Every id, sorted.
    public var ids: [String] { descriptors.map(\.id) }

    /// The descriptor with `id`, if registered.
    public func descriptor(id: String) -> AdapterDescriptor? {
        types.first { $0.descriptor.id == id }?.descriptor
    }

    /// The descriptor with `id`, or an `unknownExchange` error listing the known ids.
    public func requireDescriptor(id: String) throws(AggError) -> AdapterDescriptor {
        guard let descriptor = descriptor(id: id.lowercased()) else {
            throw .unknownExchange(id, known: ids)
        }
        return descriptor
    }

    /// A new adapter with `id`, reaching its venue through `environment`.
    public func makeAdapter(id: String, environment: AdapterEnvironment) throws(AggError)
        -> any ExchangeAdapter
    {
        guard let type = types.first(where: { $0.descriptor.id == id.lowercased() }) else {
            throw .unknownExchange(id, known: ids)
        }
        return type.init(environment: environment)
    }

    /// The quota reader of the adapter with `id` (see `ExchangeAdapter.pauseAfter`).
    public func pauseAfter(id: String) -> @Sendable (HTTPResponse) -> Double? {
        guard let type = types.first(where: { $0.descriptor.id == id }) else { return { _ in nil } }
        return { response in type.pauseAfter(response) }
    }

    /// The descriptors that can do `capability`, and, when `quote` is given, can ask for
    /// markets quoted in it.
    public func descriptors(supporting capability: Capability, quotedIn quote: String? = nil)
        -> [AdapterDescriptor]
    {
        descriptors.filter { descriptor in
            descriptor.supports(capability)
                && (quote.map { descriptor.quoteCurrencies.contains($0) } ?? true)
        }
    }
}
