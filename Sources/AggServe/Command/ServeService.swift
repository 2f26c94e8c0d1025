import AggCore
import AggServer
import AggServices

/// `agg serve`'s use case: listens, polls every interval until a stop signal, then drains
/// (no terminal: what it does is reported as `Event`s).
package struct ServeService: Sendable {
    /// What the service reports as it goes.
    package enum Event: Sendable, Equatable {
        /// Listening at `baseURL`, polling `sources` venues and FX sources every `interval` seconds.
        case serving(baseURL: String, sources: Int, interval: Double)
        /// Drained and stopped.
        case stopped
    }

    /// The registry, environment, config, HTTP client, clock and history store of the run.
    var context: CLIContext

    /// Serves `request` until `interrupts` (asked for once the server listens) delivers a
    /// stop; requests in flight then have `ServeOptions.drainSeconds`. `alerts` (the request's
    /// rules with their delivery, which the front end sets up) are checked on every poll's board.
    ///
    /// - Throws: `HTTPServerError` when the address cannot be listened on.
    package func run(
        _ request: ServeRequest, alerts: AlertSetup?, interrupts: @Sendable () -> AsyncStream<Void>,
        report: (Event) -> Void
    ) async throws(HTTPServerError) {
        let runtime = try ServeRuntime(
            context: context, options: request.options, plan: request.plan, address: request.address,
            token: request.token, maximumStreams: ServeOptions.maximumStreams, streamQueue: ServeOptions.streamQueue,
            alerts: alerts, streamsVenues: request.streams)
        let server = runtime.server
        let poller = runtime.poller
        let interval = request.interval
        report(
            .serving(
                baseURL: server.baseURL, sources: request.plan.venues.count + request.plan.fxSources.count,
                interval: interval))
        let context = self.context
        let polls = Task {
            guard let venueStreams = runtime.venueStreams else {
                await poller.run(interval: interval)
                return
            }
            // The first poll asks every venue (the markets to follow); the streams take over
            // those that answered, and later polls ask only the others, FX and transfer status.
            let first = await poller.poll(deadline: poller.deadline(interval: interval))
            let service = LiveQuoteService(
                factory: AdapterFactory(context: context, options: request.options), context: context)
            let clock = context.makeStreamClock()
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await venueStreams.run(
                        after: first, service: service, poller: poller, interval: interval, clock: clock)
                }
                group.addTask { await poller.run(interval: interval, waitFirst: true) }
            }
        }
        for await _ in interrupts() { break }
        polls.cancel()
        await server.stop(drainingFor: ServeOptions.drainSeconds)
        await polls.value
        await runtime.app.finishAlerts()
        report(.stopped)
    }

    package init(context: CLIContext) {
        self.context = context
    }
}
