import AggCore
import AggJSON
import FoundationEssentials

/// A recorded answer: what a venue sent for one request.
public struct FixtureAnswer: Sendable, Equatable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The fixture answers of one venue, read from `Fixtures/<venue>/routes.json`.
///
/// `routes.json` lists routes in order; the first whose path (and query, when given) matches a
/// request answers it. A `*` in a pattern matches any run of characters, so one route can
/// answer every unlisted coin with the venue's recorded error.
///
/// `data` says where the answers come from (``Provenance``); it is required, so that sample data
/// is never presented as a venue's recorded answer by default.
///
/// ```json
/// {"venue": "bithumb", "recorded": "2024-08-08T08:12:15Z", "data": "mixed",
///  "routes": [{"path": "/public/ticker/BTC_KRW", "file": "ticker_BTC_KRW.json"},
///             {"path": "/v1/ticker", "query": {"markets": "*"}, "file": "ticker.json",
///              "status": 200, "headers": {"Remaining-Req": "group=ticker; min=600; sec=9"}}]}
/// ```
public struct FixtureRoutes: Sendable {
    /// One entry of `routes.json`.
    public struct Route: Sendable {
        public var path: String
        public var query: [(name: String, pattern: String)]
        /// The recorded body; `nil` (`"file": null`) marks a request that was never recorded,
        /// so that it is reported as such instead of falling through to a catch-all route.
        public var file: String?
        public var status: Int
        public var headers: [HTTPHeader]
    }

    /// Where a venue's answers come from, as its `routes.json` states in `data`.
    public enum Provenance: String, Sendable, CaseIterable {
        /// Every answer is the venue's real one, recorded.
        case recorded
        /// Every answer is sample data: written by hand or by a script in the venue's documented shape.
        case sample
        /// Recorded answers, with some sample data among them.
        case mixed
    }

    public let venue: String
    /// The date the answers stand for, as the file states it: when they were recorded, or the
    /// date sample data is dated to.
    public let recorded: String
    /// Whether the answers are recorded, sample data, or both.
    public let data: Provenance
    public let routes: [Route]
    /// The folder the bodies are read from.
    public let directory: URL

    /// Reads `routes.json` from `directory`.
    public init(directory: URL) throws(AggError) {
        let manifest = directory.appendingPathComponent("routes.json")
        guard let data = FileManager.default.contents(atPath: manifest.path) else {
            let reason =
                FileManager.default.fileExists(atPath: directory.path)
                ? "\(manifest.path) is missing or cannot be read" : "\(directory.path) does not exist"
            throw .offline("no fixture answers for \(directory.lastPathComponent): \(reason)")
        }
        let json: JSONCursor
        do {
            json = JSONCursor(try JSONParser.parse(Array(data)))
        } catch {
            throw .offline("\(manifest.path): \(error)")
        }
        do throws(JSONDecodingError) {
            venue = try json["venue"].string()
            recorded = try json["recorded"].string()
            let provenance = json["data"]
            let choices = Provenance.allCases.map(\.rawValue).joined(separator: ", ")
            let dataText = provenance.isPresent ? try provenance.string() : ""
            guard let data = Provenance(rawValue: dataText) else {
                throw provenance.failure(
                    provenance.isPresent ? "'\(dataText)' is not one of: \(choices)" : "missing: one of \(choices)")
            }
            self.data = data
            var routes: [Route] = []
            for route in try json["routes"].elements() {
                var query: [(name: String, pattern: String)] = []
                if route["query"].isPresent {
                    for member in try route["query"].members() {
                        query.append((member.key, try member.value.string()))
                    }
                }
                var headers: [HTTPHeader] = []
                if route["headers"].isPresent {
                    for member in try route["headers"].members() {
                        headers.append(HTTPHeader(name: member.key, value: try member.value.string()))
                    }
                }
                routes.append(
                    Route(
                        path: try route["path"].string(), query: query, file: try route["file"].optionalString(),
                        status: route["status"].isPresent ? Int(try route["status"].int64()) : 200,
                        headers: headers
                    )
                )
            }
            self.routes = routes
        } catch {
            throw .offline("\(manifest.path): \(error)")
        }
        self.directory = directory
    }

    /// The route answering `path` with `query` (the raw query string), if any.
    public func route(path: String, query: String) -> Route? {
        let items = Self.queryItems(query)
        return routes.first { route in
            Glob.matches(route.path, path)
                && route.query.allSatisfy { wanted in
                    items.contains { $0.name == wanted.name && Glob.matches(wanted.pattern, $0.value) }
                }
        }
    }

    /// The recorded answer for `path` and `query`, or `nil` when no route matches. With `next`,
    /// a route's second version answers instead when there is one: the file of the same name
    /// ending `.next.json` (`ticker.json` → `ticker.next.json`), a venue's answer changed as it
    /// would be a tick later (a coin listed, a warning lifted, a notice posted).
    public func answer(path: String, query: String, next: Bool = false) throws(AggError) -> FixtureAnswer? {
        guard let route = route(path: path, query: query) else { return nil }
        guard var name = route.file else { return nil }
        if next, name.hasSuffix(".json") {
            let second = String(name.dropLast(".json".count)) + Self.nextSuffix
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(second).path) { name = second }
        }
        let file = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw .offline("missing recorded body \(file.path)")
        }
        var headers = route.headers
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.append(HTTPHeader(name: "Content-Type", value: "application/json; charset=utf-8"))
        }
        return FixtureAnswer(status: route.status, headers: headers, body: Array(data))
    }

    /// How a second version of a route's file ends.
    public static let nextSuffix = ".next.json"

    /// Splits `a=1&b=x%2Cy` into decoded pairs.
    public static func queryItems(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = URLText.decode(String(parts[0]))
            let value =
                parts.count > 1 ? URLText.decode(String(parts[1])) : ""
            return (name, value)
        }
    }
}

/// Wildcard matching where `*` stands for any run of characters.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count > 1 else { return pattern == text }
        guard text.hasPrefix(pieces[0]) else { return false }
        var rest = text.dropFirst(pieces[0].count)
        for (index, piece) in pieces.enumerated().dropFirst() {
            if index == pieces.count - 1 { return rest.hasSuffix(piece) }
            guard !piece.isEmpty else { continue }
            guard let range = rest.firstRange(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
