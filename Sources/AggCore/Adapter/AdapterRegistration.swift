/// One venue a program knows: its descriptor, and how to make an adapter for it.
///
/// The descriptor is here, not only on the adapter, so that the CLI can plan, validate and list
/// venues without making one; the adapter need not be a compiled type (a venue described by a
/// data file brings its descriptor with it).
public struct AdapterRegistration: Sendable {
    public var descriptor: AdapterDescriptor
    /// A new adapter reaching the venue through the environment.
    public var make: @Sendable (AdapterEnvironment) -> any ExchangeAdapter

    public init(
        descriptor: AdapterDescriptor, make: @escaping @Sendable (AdapterEnvironment) -> any ExchangeAdapter
    ) {
        self.descriptor = descriptor
        self.make = make
    }

    /// The registration of a compiled adapter: its static descriptor and its initializer.
    public init<Adapter: CompiledAdapter>(_ type: Adapter.Type) {
        self.init(descriptor: Adapter.descriptor) { environment in Adapter(environment: environment) }
    }
}
