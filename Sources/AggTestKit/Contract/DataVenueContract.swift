import AggCore
import AggDataVenues
import AggFixtures
import Foundation

extension AdapterContract {
    /// The violations of the venue described by `file` against the answers recorded in
    /// `recordings` (a folder with `routes.json`, the answers' files and `contract.json`),
    /// answered in process as `--offline` answers. A file that cannot be loaded is one violation.
    ///
    /// This is how the author of a venue file checks it without building agg: record the venue's
    /// answers once, then run the checker over the file and the recordings.
    public static func checkDataVenue(file: URL, recordings: URL) async throws -> [String] {
        let registration: AdapterRegistration
        do throws(DataVenueFileError) {
            registration = try DataVenueLoader.load(file: file) { .userFile(path: $0) }
        } catch {
            return [error.description]
        }
        let baseURL = "https://contract.invalid/\(registration.descriptor.id)"
        let http = OfflineHTTPClient(routes: try FixtureRoutes(directory: recordings), baseURL: baseURL)
        return await check(
            registration, http: http, baseURL: baseURL, samples: try ContractSamples(directory: recordings))
    }

    /// The shipped venue files, `Plugins/DataVenues/*.json` of the checkout.
    public static var shippedDataVenueFiles: [URL] {
        DataVenueLoader.files(in: DataVenueDirectory.checkout)
    }
}

extension AdapterRegistry {
    /// The venues of the shipped venue files (`Plugins/DataVenues/*.json`), each loaded as agg
    /// loads it; a file that does not load is left out (the contract test names it).
    public static var shippedDataVenues: [AdapterRegistration] {
        AdapterContract.shippedDataVenueFiles.compactMap { file in
            try? DataVenueLoader.load(file: file) { .shippedFile(path: $0) }
        }
    }
}
