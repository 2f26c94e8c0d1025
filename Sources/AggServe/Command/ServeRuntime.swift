import AggCore
import AggServer
import AggServices

/// A listening server and its poller (which polls only when told): `agg serve` runs the poll
/// loop on it; tests poll by hand.
struct ServeRuntime: Sendable {
    let server: HTTPServer
    let app: ServeApp
    let poller: ServePoller
    let metrics: ServeMetrics
    let streams: EventStreamHub
    /// The venues followed on their streams after the first poll; `nil` with `--no-stream`.
    let venueStreams: ServeStreams?

    init(
        context: CLIContext, options: NetworkOptions, plan: ServePlan, address: ListenAddress, token: BearerToken?,
        limits: HTTPServerLimits = .standard, work: ServeLimits = .standard,
        maximumStreams: Int = ServeOptions.maximumStreams, streamQueue: Int = ServeOptions.streamQueue,
        alerts: AlertSetup? = nil, streamsVenues: Bool = false
    ) throws(HTTPServerError) {
        let metrics = ServeMetrics()
        let prefixes = context.registry.descriptors.map { descriptor in
            (
                prefix: context.configuration.baseURL(for: descriptor, environment: context.environment),
                id: descriptor.id
            )
        }.sorted { $0.prefix.count > $1.prefix.count }
        var polling = context
        let makeHTTPClient = context.makeHTTPClient
        polling.makeHTTPClient = { timeouts in
            MeteredHTTPClient(base: makeHTTPClient(timeouts), venues: prefixes, metrics: metrics)
        }
        let streams = EventStreamHub(maximumSubscribers: maximumStreams, queueLimit: streamQueue)
        let streamed = plan.venues.map(\.descriptor).filter { $0.supports(.stream) }.map(\.id)
        let venueStreams =
            streamsVenues && !streamed.isEmpty ? ServeStreams(venues: Set(streamed), gauges: metrics.venueStreams) : nil
        self.venueStreams = venueStreams
        let app = ServeApp(
            endpoints: ServeEndpoints(context: context, polled: plan.ids, history: context.historyStore), plan: plan,
            token: token, metrics: metrics, streams: streams, limits: work, alerts: alerts)
        server = try HTTPServer(address: address, limits: limits, handler: app, streams: streams)
        poller = ServePoller(
            plan: plan, factory: AdapterFactory(context: polling, options: options),
            venueDeadline: options.timeouts.total, now: context.now,
            publish: { snapshot, pollEnded in await app.publish(snapshot, pollEnded: pollEnded) },
            leftToStream: { venueStreams?.takesOver($0) ?? false })
        self.app = app
        self.metrics = metrics
        self.streams = streams
    }
}
