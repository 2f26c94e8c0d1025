/// One venue a program knows: its descriptor, and how to make an adapter for it.
///
/// The descriptor is here, not only on the adapter, so that the CLI can plan, validate and list
/// venues without making one; the adapter need not be a compiled type (a venue described by a
/// data file brings its descriptor with it).
public struct AdapterRegistration: Sendable {
    public var descriptor: AdapterDescriptor
    /// A new adapter reaching the venue through the environment.
    public var make: @Sendable (AdapterEnvironment) -> any VenueAdapter
    /// Where the venue's definition comes from: compiled into agg, or a data file.
    public var origin: VenueOrigin

    public init(
        descriptor: AdapterDescriptor, origin: VenueOrigin = .builtIn,
        make: @escaping @Sendable (AdapterEnvironment) -> any VenueAdapter
    ) {
        self.descriptor = descriptor
        self.origin = origin
        self.make = make
    }

    /// The registration of a compiled adapter: its static descriptor and its initializer.
    public init<Adapter: CompiledAdapter>(_ type: Adapter.Type) {
        self.init(descriptor: Adapter.descriptor) { environment in Adapter(environment: environment) }
    }
}

/// Where a venue's definition comes from, so that `agg exchanges` can say it.
public enum VenueOrigin: Sendable, Equatable {
    /// An adapter compiled into agg.
    case builtIn
    /// A data file shipped with agg (`Plugins/DataVenues/` in a checkout, `share/agg/Venues`
    /// when installed).
    case shippedFile(path: String)
    /// A data file of the user's, in the `venues/` folder beside the config file.
    case userFile(path: String)

    /// `builtIn`, `shipped` or `user`, for JSON and CSV output.
    public var kind: String {
        switch self {
        case .builtIn: "builtIn"
        case .shippedFile: "shipped"
        case .userFile: "user"
        }
    }

    /// The data file, if the venue comes from one.
    public var file: String? {
        switch self {
        case .builtIn: nil
        case .shippedFile(let path), .userFile(let path): path
        }
    }

    /// Words for a table: `built in`, `shipped gopax.json`, `user /home/u/.config/agg/venues/x.json`.
    public var title: String {
        switch self {
        case .builtIn: "built in"
        case .shippedFile(let path): "shipped " + (path.split(separator: "/").last.map(String.init) ?? path)
        case .userFile(let path): "user " + path
        }
    }
}
