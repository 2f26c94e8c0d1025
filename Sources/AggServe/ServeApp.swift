import AggCore
import AggJSON
import AggServer
import AggServices
import CMalloc
import FoundationEssentials
import Synchronization

/// What the poller last published, with what is derived from it once per poll.
package struct ServePublication: Sendable {
    var snapshot: ServeSnapshot
    /// The one before, for the rates' previous values.
    var previous: ServeSnapshot?
    /// `/v1/premium` with no query: the board streamed to `/v1/stream`, made once a poll (when
    /// its last answer is in) and at the first publication.
    var board: String
    var boardValue: PremiumBoard?
    /// The snapshot part of `/metrics`, as bytes, rendered once per publication.
    var metricsBytes: [UInt8]
}

/// The latest publication, shared by the routes and the poller.
package final class PublicationBox: Sendable {
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
    let limits: ServeLimits
    let cache: ResponseCache
    /// Expensive answers (compare, premium, rates, status, history), a few at a time.
    let work: WorkQueue
    /// Quotes, in a lane of their own.
    let quoteWork: WorkQueue
    private let published = PublicationBox()
    private let router: Router

    init(
        endpoints: ServeEndpoints, plan: ServePlan, token: BearerToken?, metrics: ServeMetrics,
        streams: EventStreamHub, limits: ServeLimits = .standard, alerts: AlertSetup? = nil
    ) {
        self.alerts = alerts
        alertMonitor = Mutex(alerts?.monitor())
        eventCursor = Mutex(endpoints.context.now())
        self.endpoints = endpoints
        self.plan = plan
        self.token = token
        self.metrics = metrics
        self.streams = streams
        self.limits = limits
        cache = ResponseCache(capacity: limits.cacheKeys, maximumBytes: limits.cacheBytes)
        // After a burst of expensive answers, the memory they took goes back to the system:
        // agg takes large blocks from the heap (see CMalloc/shim.h), which free() keeps.
        let returnsMemory = limits.returnsMemory
        work = WorkQueue(slots: limits.computeSlots, waitingLimit: limits.computeWaiting) {
            if returnsMemory { _ = malloc_trim(0) }
        }
        quoteWork = WorkQueue(slots: limits.quoteSlots, waitingLimit: limits.quoteWaiting)
        // Tells one run of the server from the next, so that an ETag never outlives it.
        let instance = String(UInt64.random(in: 0..<UInt64.max) >> 16, radix: 36)
        router = Self.routes(
            endpoints: endpoints, published: published, cache: cache, metrics: metrics, streams: streams,
            limits: limits, lanes: Lanes(expensive: work, quote: quoteWork), instance: instance, plan: plan)
    }

    /// The latest publication.
    var publication: ServePublication? { published.value.withLock { $0 } }

    /// `--alert`: the rules' states, evaluated once a poll on its board.
    private let alerts: AlertSetup?
    private let alertMonitor: Mutex<AlertMonitor?>

    /// Evaluates the rules on a poll's board and delivers what fired. Polls publish one at a
    /// time, so the monitor taken out here is put back before the next poll takes it.
    private func alert(_ result: PremiumService.Result, alerts: AlertSetup) async {
        guard var monitor = alertMonitor.withLock({ $0.take() }) else { return }
        _ = await alerts.tick(
            AlertObservations(premium: result, symbols: alerts.symbols), at: result.asOf, monitor: &monitor)
        alertMonitor.withLock { $0 = monitor }
    }

    /// Where `/v1/stream`'s `event`s go on from: just after the first observation of the last
    /// market event streamed (at start, the server's start: the past is on `/v1/events`).
    private let eventCursor: Mutex<Timestamp>

    /// Streams the market events the history store gained since the last poll (`agg record
    /// --events` stores them; `agg serve` does not observe the venues' event sources itself): one
    /// SSE `event` each, its data the row `/v1/events` writes, its id the event's first
    /// observation in milliseconds. A store that fails to answer is asked again next poll.
    private func streamEvents() async {
        guard let store = endpoints.history as? any EventStore else { return }
        let since = eventCursor.withLock { $0 }
        guard let events = try? await store.events(EventQuery(since: since)), let last = events.last else { return }
        eventCursor.withLock { $0 = Timestamp(millisecondsSince1970: last.firstObserved.millisecondsSince1970 + 1) }
        for event in events {
            streams.publish(
                ServerSentEvent(
                    event: "event", id: String(event.firstObserved.millisecondsSince1970),
                    data: EventsRendering.json(event).serialized()))
        }
    }

    /// Waits for the alert programs and the `--notify` queues (each within its deadline).
    func finishAlerts() async {
        await alerts?.delivery.finish()
    }

    /// Makes `snapshot` the one every client reads, with its metrics. The board is made again
    /// (and streamed) once a poll, when `pollEnded`, and at the first publication: the poll's
    /// other publications keep the last board, so that a poll costs one board, not one per
    /// answer. Runs on the poller's task.
    func publish(_ snapshot: ServeSnapshot, pollEnded: Bool = true) async {
        let last = published.value.withLock { $0 }
        let board: String
        let boardValue: PremiumBoard?
        if let last, !pollEnded {
            board = last.board
            boardValue = last.boardValue
        } else {
            let premium = await Result<ServeEndpoints.PremiumAnswer, AggError>.catching {
                () throws(AggError) in try await endpoints.premium([], snapshot: snapshot)
            }
            switch premium {
            case .success(let answer):
                board = answer.text
                boardValue = answer.board
                if pollEnded, let alerts, let result = answer.result { await alert(result, alerts: alerts) }
            case .failure(let error):
                board = HTTPServerResponse.errorText(502, error.description)
                boardValue = nil
            }
        }
        let text = ServeMetrics.snapshotText(snapshot, board: boardValue, plan: plan)
        published.value.withLock { published in
            // The rates' previous values come from the last snapshot with other FX tables.
            var previous = published?.previous
            if let last = published?.snapshot, last.fx != snapshot.fx { previous = last }
            published = ServePublication(
                snapshot: snapshot, previous: previous, board: board, boardValue: boardValue, metricsBytes: text)
        }
        guard pollEnded else { return }
        // Before the board, which stays the event a new client gets first.
        await streamEvents()
        streams.publish(
            ServerSentEvent(
                event: "board", id: String(snapshot.generation),
                data: board.hasSuffix("\n") ? String(board.dropLast()) : board))
    }

    func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
        if request.path != "/healthz", !BoardPage.isPage(request.path), let token, !token.accepts(request.authorization)
        {
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

    /// The work queues of the routes that compute.
    struct Lanes: Sendable {
        var expensive: WorkQueue
        var quote: WorkQueue
    }

    private static func routes(
        endpoints: ServeEndpoints, published: PublicationBox, cache: ResponseCache, metrics: ServeMetrics,
        streams: EventStreamHub, limits: ServeLimits, lanes: Lanes, instance: String, plan: ServePlan
    ) -> Router {
        let current: @Sendable () -> ServePublication? = { published.value.withLock { $0 } }
        let computeSeconds = limits.computeSeconds
        /// `work` run on the cooperative pool in a slot of `lane`, waited for on this (connection)
        /// thread: 503 with `Retry-After` when the lane is full or the answer is late. The slot
        /// is held until the work ends, even when its client stopped waiting.
        @Sendable func computed(
            in lane: WorkQueue, late: String, _ work: @escaping @Sendable () async -> Result<String, AggError>,
            failure: @escaping @Sendable (AggError) -> HTTPServerResponse
        ) -> HTTPServerResponse {
            let started = ContinuousClock.now
            switch lane.enter(waiting: computeSeconds) {
            case .failure(.full):
                metrics.rejected.withLock { $0 += 1 }
                return .error(
                    503, "too many answers are being computed; try again in a second", headers: [("Retry-After", "1")])
            case .failure(.timedOut):
                metrics.rejected.withLock { $0 += 1 }
                return .error(503, late, headers: [("Retry-After", "1")])
            case .success: break
            }
            let left = computeSeconds - (ContinuousClock.now - started).seconds
            let outcome = waitForAsync(seconds: max(0, left)) {
                defer { lane.leave() }
                return await work()
            }
            switch outcome {
            case nil:
                metrics.rejected.withLock { $0 += 1 }
                return .error(503, late, headers: [("Retry-After", "1")])
            case .success(let text)?: return .json(text)
            case .failure(let error)?: return failure(error)
            }
        }
        /// An endpoint answered once per snapshot and query, shared by every client asking it,
        /// tagged with the snapshot's generation.
        func shared(
            lane: WorkQueue,
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
                let generation = publication.snapshot.generation
                var response = cache.response(key: key, generation: generation) {
                    let arguments = request.arguments
                    return computed(
                        in: lane, late: "the answer took longer than \(Int(computeSeconds)) s",
                        {
                            await Result<String, AggError>.catching { () throws(AggError) in
                                try await compute(arguments, publication)
                            }
                        },
                        failure: { error in .error(error.isUsageError ? 400 : 502, error.description) })
                }
                if response.status == 200 { response.etag = "\(instance)-\(generation)" }
                return response
            }
        }
        var router = Router()
        router.get(
            "/v1/quote",
            shared(lane: lanes.quote) { arguments, publication throws(AggError) in
                try await endpoints.quote(arguments, snapshot: publication.snapshot)
            })
        router.get(
            "/v1/compare",
            shared(lane: lanes.expensive) { arguments, publication throws(AggError) in
                try await endpoints.compare(arguments, snapshot: publication.snapshot)
            })
        router.get(
            "/v1/premium",
            shared(lane: lanes.expensive) { arguments, publication throws(AggError) in
                arguments.isEmpty
                    ? publication.board : try await endpoints.premium(arguments, snapshot: publication.snapshot).text
            })
        router.get(
            "/v1/rates",
            shared(lane: lanes.expensive) { arguments, publication throws(AggError) in
                try await endpoints.rates(arguments, snapshot: publication.snapshot, previous: publication.previous)
            })
        router.get(
            "/v1/status",
            shared(lane: lanes.expensive) { arguments, publication throws(AggError) in
                try await endpoints.status(arguments, snapshot: publication.snapshot)
            })
        let exchanges = endpoints.exchanges()
        router.get("/v1/exchanges") { request in
            request.arguments.isEmpty
                ? .json(exchanges, etag: "\(instance)-exchanges")
                : .error(400, "/v1/exchanges takes no query parameters")
        }
        // Read on the connection's thread, not the cooperative pool: one small query of the local
        // database, whose readers never wait for a writer (WAL).
        router.get("/v1/favorites", parameters: []) { _ in
            switch endpoints.favorites() {
            case .success(let text): .json(text)
            case .failure(let error): .error(500, error.description)
            }
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
            return computed(
                in: lanes.expensive, late: "the history store did not answer within \(Int(computeSeconds)) s",
                {
                    await Result<String, AggError>.catching { () throws(AggError) in
                        let prices = try await store.prices(query)
                        let premiums = try await store.premiums(query)
                        return ServeHistory.json(query: query, prices: prices, premiums: premiums)
                    }
                }, failure: { error in .error(500, error.description) })
        }
        router.get("/v1/events") { request in
            // Both history stores keep the events too; a store that does not (a test's) is none.
            guard let store = endpoints.history as? any EventStore else {
                return .error(404, "this server has no history store")
            }
            return computed(
                in: lanes.expensive, late: "the history store did not answer within \(Int(computeSeconds)) s",
                {
                    await Result<String, AggError>.catching { () throws(AggError) in
                        try await endpoints.events(request.arguments, store: store)
                    }
                }, failure: { error in .error(error.isUsageError ? 400 : 500, error.description) })
        }
        router.stream("/v1/stream", hub: streams)
        BoardPage.register(in: &router)
        router.get("/metrics", parameters: []) { _ in
            // The snapshot's part is rendered once per poll; only the counters are written here.
            let snapshotPart = current()?.metricsBytes ?? []
            let livePart = metrics.liveText(streams: streams, lanes: lanes)
            var body: [UInt8] = []
            body.reserveCapacity(snapshotPart.count + livePart.count)
            body += snapshotPart
            body += livePart
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", PrometheusText.contentType)], body: .bytes(body))
        }
        router.get("/healthz", parameters: []) { _ in
            guard let publication = current() else { return .error(503, "the first poll has not finished") }
            return ServeHealth(publication.snapshot, plan: plan, now: endpoints.context.now()).response
        }
        return router
    }
}

/// `/healthz`: `ok` when every venue and FX source answered its last request, `degraded`
/// (still 200) when some did not, naming them, and `down` (503) when no venue did; with the
/// snapshot's generation, time and age in seconds.
struct ServeHealth: Sendable {
    var status: String
    var stale: [String]
    var generation: Int
    var time: Timestamp
    var ageSeconds: Int64

    init(_ snapshot: ServeSnapshot, plan: ServePlan, now: Timestamp) {
        let ids = Set(plan.venues.map(\.descriptor.id) + plan.fxSources.map(\.id))
        stale = snapshot.stale(among: ids)
        let fresh = plan.venues.contains { snapshot.venues[$0.descriptor.id]?.isFresh == true }
        status = !fresh ? "down" : stale.isEmpty ? "ok" : "degraded"
        generation = snapshot.generation
        time = snapshot.time
        ageSeconds = max(0, (now.millisecondsSince1970 - snapshot.time.millisecondsSince1970) / 1000)
    }

    var response: HTTPServerResponse {
        let document: JSONValue =
            stale.isEmpty
            ? [
                "status": .string(status), "generation": .number(String(generation)),
                "snapshotTime": .string(time.description), "ageSeconds": .number(String(ageSeconds)),
            ]
            : [
                "status": .string(status), "generation": .number(String(generation)),
                "snapshotTime": .string(time.description), "ageSeconds": .number(String(ageSeconds)),
                "stale": .array(stale.map { .string($0) }),
            ]
        return .json(document.serialized() + "\n", status: status == "down" ? 503 : 200)
    }
}
