import AggCore
import FoundationEssentials

/// A venue file that cannot be used: the file, the JSON path in it, and the problem, on one line.
public struct DataVenueFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var problem: String

    public init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    public var description: String {
        "venue file \(file): \(path): \(problem)".replacing("\n", with: " ").replacing("\r", with: " ")
    }
}

/// What loading the venue files gave: the venues registered and the files refused.
public struct DataVenueLoad: Sendable {
    public var registry: AdapterRegistry
    /// One error per refused file; the other files' venues are registered all the same.
    public var errors: [DataVenueFileError]
}

/// Reads venue definitions from folders and adds them to a registry.
public enum DataVenueLoader {
    /// The largest venue file read, in bytes.
    public static let maximumFileSize = 256 * 1024

    /// The registration of the venue in `file`, from `origin`.
    public static func load(file: URL, origin: (String) -> VenueOrigin) throws(DataVenueFileError)
        -> AdapterRegistration
    {
        let path = file.path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DataVenueFileError(file: path, path: "$", problem: "cannot read it")
        }
        guard data.count <= maximumFileSize else {
            throw DataVenueFileError(file: path, path: "$", problem: "larger than \(maximumFileSize) bytes")
        }
        let registration: AdapterRegistration
        do throws(DataVenueDefinitionError) {
            let definition = try DataVenueDefinition.parse(Array(data))
            registration = DataVenueAdapter.registration(definition, origin: origin(path))
        } catch {
            throw DataVenueFileError(file: path, path: error.path, problem: error.problem)
        }
        do throws(RequestRateError) {
            try registration.descriptor.checkRequestRate()
        } catch {
            throw DataVenueFileError(file: path, path: "$.requestsPerSecond", problem: error.description)
        }
        return registration
    }

    /// The `.json` files of `folder`, sorted by name; none when the folder does not exist.
    public static func files(in folder: URL) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }

    /// `registry` with the venues of the shipped folders, then of the user's folder, added.
    ///
    /// A file that cannot be read or checked is one error and is skipped. A data venue cannot
    /// take a built-in venue's id; a user's file may replace a shipped one with the same id,
    /// but two files of the same kind (two user files, two shipped files) may not share an id:
    /// the second is refused, naming the first, rather than one of them silently winning.
    public static func load(into registry: AdapterRegistry, shipped: [URL], user: URL?) -> DataVenueLoad {
        var registry = registry
        var errors: [DataVenueFileError] = []
        var sources: [(URL, Bool, (String) -> VenueOrigin)] = shipped.flatMap { folder in
            files(in: folder).map { ($0, false, { VenueOrigin.shippedFile(path: $0) }) }
        }
        if let user { sources += files(in: user).map { ($0, true, { VenueOrigin.userFile(path: $0) }) } }
        /// The file that defined each id so far, and whether it is a user's.
        var definedBy: [String: (file: String, user: Bool)] = [:]
        for (file, isUser, origin) in sources {
            do throws(DataVenueFileError) {
                let registration = try load(file: file, origin: origin)
                let id = registration.descriptor.id
                if registry.registration(id: id)?.origin == .builtIn {
                    throw DataVenueFileError(file: file.path, path: "$.id", problem: "'\(id)' is a built-in venue")
                }
                if let earlier = definedBy[id], earlier.user == isUser {
                    throw DataVenueFileError(
                        file: file.path, path: "$.id", problem: "'\(id)' is already defined by \(earlier.file)")
                }
                definedBy[id] = (file.path, isUser)
                registry.register(registration)
            } catch {
                errors.append(error)
            }
        }
        return DataVenueLoad(registry: registry, errors: errors)
    }

    /// The user's venue folder: `venues/` beside the config file at `configPath`.
    public static func userFolder(configPath: String) -> URL {
        URL(fileURLWithPath: configPath).deletingLastPathComponent().appendingPathComponent("venues", isDirectory: true)
    }
}

/// Where the venue files shipped with agg are.
public enum DataVenueDirectory {
    /// `share/agg/Venues` beside an installed binary (`<prefix>/bin/agg` reads
    /// `<prefix>/share/agg/Venues`, found from the executable's real path, so also when it is run
    /// by name through `PATH` or through a symbolic link); else `Plugins/DataVenues` in the
    /// checkout this binary was built from.
    public static func locate(executable: String? = RunningExecutable.path()) -> URL {
        if let installed = RunningExecutable.shared("Venues", beside: executable), RunningExecutable.isFolder(installed)
        {
            return installed
        }
        return checkout
    }

    /// `Plugins/DataVenues/` in the source tree this module was compiled from.
    public static var checkout: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // AggDataVenues
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Plugins/DataVenues", isDirectory: true)
    }
}
