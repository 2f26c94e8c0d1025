import AggCore
import AggJSON
import AggServer
import FoundationEssentials
import Synchronization

/// What the poller last published, with what is derived from it once per poll.
struct ServePublication: Sendable {
    var snapshot: ServeSnapshot
    /// The one before, for the rates' previous values.
    var previous: ServeSnapshot?
    /// `/v1/premium` with no query: the board streamed to `/v1/stream`.
    var board: String
    /// The snapshot part of `/metrics`, as bytes.
    var metricsBytes: [UInt8]
}

/// The latest publication, shared by the routes and the poller.
final class PublicationBox: Sendable {
    let value = Mutex<ServePublication?>(nil)
}

/// `agg serve`'s HTTP side: the routes, the bearer check, the shared answers and the metrics.
/// Every answer is read from the latest publication; nothing a client sends reaches a venue.
final class ServeApp: HTTPHandler {
    let endpoints: ServeEndpoints
    let plan: ServePlan
    let token: BearerToken?
    let metrics: ServeMetrics
    let streams: EventStreamHub
    let cache = ResponseCache(capacity: 1024)
    /// How long one answer may take to compute before the client gets 503.
    let computeSeconds: Double
    private let published = PublicationBox()
    private let router: Router

    init(
        endpoints: ServeEndpoints, plan: ServePlan, token: BearerToken?, metrics: ServeMetrics,
        streams: EventStreamHub, computeSeconds: Double = 10
    ) {
        self.endpoints = endpoints
        self.plan = plan
        self.token = token
        self.metrics = metrics
        self.streams = streams
        self.computeSeconds = computeSeconds
        router = Self.routes(
            endpoints: endpoints, published: published, cache: cache, metrics: metrics,
            streams: streams, computeSeconds: computeSeconds)
    }

    /// The latest publication.
    var publication: ServePublication? { published.value.withLock { $0 } }

    /// Derives the board and the metrics of `snapshot`, makes it the one every client reads,
    /// and streams the board. Runs on the poller's task.
    func publish(_ snapshot: ServeSnapshot) async {
        let premium = await Result<ServeEndpoints.PremiumAnswer, AggError>.catching {
            () throws(AggError) in try await endpoints.premium([], snapshot: snapshot)
        }
        let board: String
        let boardValue: PremiumBoard?
        switch premium {
        case .success(let answer):
            board = answer.text
            boardValue = answer.board
        case .failure(let error):
            board = HTTPServerResponse.errorText(502, error.description)
            boardValue = nil
        }
        let text = ServeMetrics.snapshotText(snapshot, board: boardValue, plan: plan)
        published.value.withLock { published in
            published = ServePublication(
                snapshot: snapshot, previous: published?.snapshot, board: board, metricsBytes: text)
        }
        streams.publish(
            ServerSentEvent(
                event: "board", id: String(snapshot.generation),
                data: board.hasSuffix("\n") ? String(board.dropLast()) : board))
    }

    func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
        if request.path != "/healthz", let token, !token.accepts(request.authorization) {
            return .error(
                401, "this server needs 'Authorization: Bearer <token>'", headers: [("WWW-Authenticate", "Bearer")])
        }
        return router.route(request)
    }

    func label(for request: HTTPServerRequest) -> String {
        router.knows(request.path) ? request.path : "other"
    }

    func finished(label: String, status: Int, seconds: Double) {
        metrics.httpDurations.observe(label, seconds: seconds)
        metrics.httpRequests.increment(label, String(status))
    }

    private static func routes(
        endpoints: ServeEndpoints, published: PublicationBox, cache: ResponseCache, metrics: ServeMetrics,
        streams: EventStreamHub, computeSeconds: Double
    ) -> Router {
        let current: @Sendable () -> ServePublication? = { published.value.withLock { $0 } }
        /// An endpoint answered once per snapshot and query, shared by every client asking it.
        func shared(
            _ compute:
                @escaping @Sendable ([HTTPServerRequest.Argument], ServePublication) async throws(AggError)
                -> String
        ) -> Router.Responder {
            { request in
                guard let publication = current() else {
                    return .error(503, "the first poll has not finished; try again in a few seconds")
                }
                let key =
                    request.path + "?"
                    + request.arguments.map { $0.name + "=" + ($0.value ?? "") }.sorted().joined(separator: "&")
                return cache.response(key: key, generation: publication.snapshot.generation) {
                    let arguments = request.arguments
                    let outcome = waitForAsync(seconds: computeSeconds) {
                        await Result<String, AggError>.catching { () throws(AggError) in
                            try await compute(arguments, publication)
                        }
                    }
                    switch outcome {
                    case nil: return .error(503, "the answer took longer than \(Int(computeSeconds)) s")
                    case .success(let text)?: return .json(text)
                    case .failure(let error)?:
                        return .error(error.isUsageError ? 400 : 502, error.description)
                    }
                }
            }
        }
        var router = Router()
        router.get(
            "/v1/quote",
            shared { arguments, publication throws(AggError) in
                try await endpoints.quote(arguments, snapshot: publication.snapshot)
            })
        router.get(
            "/v1/compare",
            shared { arguments, publication throws(AggError) in
                try await endpoints.compare(arguments, snapshot: publication.snapshot)
            })
        router.get(
            "/v1/premium",
            shared { arguments, publication throws(AggError) in
                arguments.isEmpty
                    ? publication.board : try await endpoints.premium(arguments, snapshot: publication.snapshot).text
            })
        router.get(
            "/v1/rates",
            shared { arguments, publication throws(AggError) in
                try await endpoints.rates(arguments, snapshot: publication.snapshot, previous: publication.previous)
            })
        router.get(
            "/v1/status",
            shared { arguments, publication throws(AggError) in
                try await endpoints.status(arguments, snapshot: publication.snapshot)
            })
        let exchanges = endpoints.exchanges()
        router.get("/v1/exchanges") { request in
            request.arguments.isEmpty ? .json(exchanges) : .error(400, "/v1/exchanges takes no query parameters")
        }
        router.get("/v1/history") { request in
            guard let store = endpoints.history else {
                return .error(404, "this server has no history store")
            }
            let now = Timestamp.now
            let query: HistoryQuery
            do throws(AggError) {
                query = try ServeHistory.query(request.arguments, now: now, registry: endpoints.context.registry)
            } catch {
                return .error(400, error.description)
            }
            let outcome = waitForAsync(seconds: computeSeconds) {
                await Result<String, AggError>.catching { () throws(AggError) in
                    let prices = try await store.prices(query)
                    let premiums = try await store.premiums(query)
                    return ServeHistory.json(query: query, prices: prices, premiums: premiums)
                }
            }
            switch outcome {
            case nil: return .error(503, "the history store did not answer within \(Int(computeSeconds)) s")
            case .success(let text)?: return .json(text)
            case .failure(let error)?: return .error(500, error.description)
            }
        }
        router.stream("/v1/stream", hub: streams)
        router.get("/metrics", parameters: []) { _ in
            // The snapshot's part is rendered once per poll; only the counters are written here.
            let snapshotPart = current()?.metricsBytes ?? []
            let livePart = metrics.liveText(streams: streams)
            var body: [UInt8] = []
            body.reserveCapacity(snapshotPart.count + livePart.count)
            body += snapshotPart
            body += livePart
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", PrometheusText.contentType)], body: .bytes(body))
        }
        router.get("/healthz", parameters: []) { _ in
            guard let publication = current() else { return .error(503, "the first poll has not finished") }
            let document: JSONValue = [
                "status": "ok", "generation": .number(String(publication.snapshot.generation)),
                "snapshotTime": .string(publication.snapshot.time.description),
            ]
            return .json(document.serialized() + "\n")
        }
        return router
    }
}
