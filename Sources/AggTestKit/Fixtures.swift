import AggCore
import AggFixtures
import Foundation
import Synchronization

/// Access to the fixture answers in `Fixtures/`, for tests.
public enum Fixtures {
    /// The `Fixtures/` folder of the checkout.
    public static var directory: URL { FixtureDirectory.checkout }

    /// The bytes of `Fixtures/<path>`; a missing file is a test-setup error.
    public static func bytes(_ path: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FixtureError(path: url.path)
        }
        return Array(data)
    }

    /// The routes of one venue.
    public static func routes(_ venue: String) throws -> FixtureRoutes {
        try FixtureRoutes(directory: directory.appendingPathComponent(venue))
    }

    /// An HTTP client answering from a venue's fixture answers, as `--offline` does; with `next`,
    /// from their second versions where there are some (`<name>.next.json`).
    public static func client(_ venue: String, baseURL: String, next: Bool = false) throws -> OfflineHTTPClient {
        OfflineHTTPClient(routes: try routes(venue), baseURL: baseURL, next: next)
    }

    /// A missing fixture file.
    public struct FixtureError: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "missing fixture \(path)" }
    }
}

/// An HTTP client whose answers a test scripts, recording every request it is sent.
public final class ScriptedHTTPClient: HTTPClient {
    public typealias Script = @Sendable (HTTPRequest) throws -> HTTPResponse

    private let script: Script
    private let log = RequestLog()

    public init(_ script: @escaping Script) {
        self.script = script
    }

    /// Answers every request with `status` and `body`.
    public convenience init(status: Int = 200, body: String, headers: [HTTPHeader] = []) {
        self.init { request in
            HTTPResponse(status: status, headers: headers, body: Array(body.utf8), url: request.url)
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.append(request)
        return try script(request)
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequest] { log.all }
}

/// A thread-safe list of requests.
final class RequestLog: Sendable {
    private let entries = Mutex<[HTTPRequest]>([])

    func append(_ request: HTTPRequest) {
        entries.withLock { $0.append(request) }
    }

    var all: [HTTPRequest] { entries.withLock { $0 } }
}
