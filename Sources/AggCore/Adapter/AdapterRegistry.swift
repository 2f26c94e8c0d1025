/// The venues a program knows, by id. The executable uses the standard list
/// (`AdapterRegistry.standard`, in `AggVenues`); everything else receives a registry explicitly.
public struct AdapterRegistry: Sendable {
    /// Every registration, in the order registered.
    public private(set) var registrations: [AdapterRegistration] = []

    public init(_ registrations: [AdapterRegistration] = []) {
        for registration in registrations { register(registration) }
    }

    /// Adds a venue. Registering an id twice replaces the earlier one.
    public mutating func register(_ registration: AdapterRegistration) {
        registrations.removeAll { $0.descriptor.id == registration.descriptor.id }
        registrations.append(registration)
    }

    /// Adds a compiled adapter.
    public mutating func register<Adapter: CompiledAdapter>(_ type: Adapter.Type) {
        register(AdapterRegistration(type))
    }

    /// Every descriptor, sorted by id.
    public var descriptors: [AdapterDescriptor] {
        registrations.map(\.descriptor).sorted { $0.id < $1.id }
    }

    /// Every id, sorted.
    public var ids: [String] { descriptors.map(\.id) }

    /// The descriptor with `id`, if registered.
    public func descriptor(id: String) -> AdapterDescriptor? {
        registration(id: id)?.descriptor
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
        -> any VenueAdapter
    {
        guard let registration = registration(id: id.lowercased()) else {
            throw .unknownExchange(id, known: ids)
        }
        return registration.make(environment)
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

    /// The registration with `id` (lower-case), if registered.
    public func registration(id: String) -> AdapterRegistration? {
        registrations.first { $0.descriptor.id == id }
    }
}
