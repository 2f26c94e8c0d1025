import AggCore
import AggOptions

/// The live quote use case: the latest quote of every venue and market asked, kept up to date
/// from the venues' streams (one `VenueStream` a venue that declares `.stream`) and from REST
/// where there is none, yielding every change. Every front end that shows live quotes (`agg
/// watch --stream`, `agg premium --watch --stream`, `agg serve`, `agg record --stream`) uses it;
/// none talks to a stream itself.
///
/// The runner's events decide the rest: `resubscribed` fills the gap with one REST snapshot of
/// the connection's markets; `polling` polls them over REST every `interval` until the
/// connection is live again; `down` marks their quotes not fresh (a failure with the last quote
/// standing in, stale) and the venue's line says so once. A malformed message is counted.
package struct LiveQuoteService: Sendable {
    var quotes: QuoteService
    var factory: AdapterFactory
    var connector: any WebSocketConnector
    var clock: any StreamClock
    var environment: [String: String]
    /// Seeds the reconnect jitter; `nil` for a random seed.
    var jitterSeed: UInt64?

    /// A service with `context`'s connector, stream clock and environment (`AGG_<ID>_WS_URL`).
    package init(factory: AdapterFactory, context: CLIContext, jitterSeed: UInt64? = nil) {
        quotes = QuoteService(factory: factory, registry: context.registry, caches: false, now: context.now)
        self.factory = factory
        connector = context.makeStreamConnector()
        clock = context.makeStreamClock()
        environment = context.environment
        self.jitterSeed = jitterSeed
    }

    /// The stream URL of `descriptor`: `AGG_<ID>_WS_URL` when set, else the descriptor's.
    package func streamURL(_ descriptor: AdapterDescriptor) -> String? {
        guard let stream = descriptor.stream else { return nil }
        if let url = environment[descriptor.streamURLVariable], !url.isEmpty { return url }
        return stream.url
    }

    /// The updates of `request` until the iterating task stops iterating or is cancelled.
    package func updates(_ request: LiveQuoteRequest) -> AsyncStream<LiveQuoteUpdate> {
        let (updates, continuation) = AsyncStream<LiveQuoteUpdate>.makeStream()
        let book = LiveQuoteBook(plan: request.plan, continuation: continuation) { [clock] in clock.wallTime }
        let runner = Task {
            await run(request, book: book)
            continuation.finish()
        }
        continuation.onTermination = { _ in runner.cancel() }
        return updates
    }

    /// Runs every venue of `request` into `book` until cancelled.
    func run(_ request: LiveQuoteRequest, book: LiveQuoteBook) async {
        await withDiscardingTaskGroup { group in
            for venueRequest in request.plan.requests {
                group.addTask { await runVenue(venueRequest, request: request, book: book) }
            }
        }
    }

    /// One venue: its stream when it has one (and streams are asked for), else REST polls.
    private func runVenue(_ venueRequest: QuoteService.VenueRequest, request: LiveQuoteRequest, book: LiveQuoteBook)
        async
    {
        let venue = venueRequest.venue
        let adapter = try? factory.adapter(id: venue)
        guard request.streams, !request.plan.all, let adapter, adapter.descriptor.supports(.stream),
            let codec = adapter.tickerStream, let url = streamURL(adapter.descriptor),
            let stream = try? VenueStream(
                descriptor: adapter.descriptor, codec: codec, url: url, markets: venueRequest.markets,
                connector: connector, clock: clock, jitterSeed: jitterSeed ?? UInt64.random(in: .min ... .max))
        else {
            if request.streams, request.announcesPolling {
                book.notice("\(venue): no stream; polling over REST every \(RateText.format(request.interval)) s")
            }
            await poll(venueRequest.markets, venue: venue, request: request, book: book)
            return
        }
        await follow(stream, url: url, request: request, book: book)
    }

    /// Follows a venue's stream events until cancelled, polling the markets of a connection that
    /// has been down for the fallback time.
    private func follow(_ stream: VenueStream, url: String, request: LiveQuoteRequest, book: LiveQuoteBook) async {
        let venue = stream.venue
        var pollers: [Int: Task<Void, Never>] = [:]
        for await event in stream.events() {
            switch event {
            case .quotes(_, let quotes, _):
                book.received(quotes, venue: venue)
            case .malformed(_, let reason, _):
                book.malformed(venue: venue, reason: reason)
            case .state(let connection, let state):
                request.observesStreams?(venue, connection, state)
                switch state {
                case .connecting:
                    break
                case .live:
                    pollers.removeValue(forKey: connection)?.cancel()
                    book.streamUp(venue: venue, connection: connection)
                case .resubscribed:
                    pollers.removeValue(forKey: connection)?.cancel()
                    book.streamUp(venue: venue, connection: connection)
                    // One REST snapshot fills the gap; frames that came meanwhile are applied
                    // after it, so the newest value wins.
                    let outcomes = await fetch(stream.plan[connection], venue: venue, request: request)
                    book.polled(outcomes, venue: venue)
                case .down(let fault):
                    book.streamDown(
                        venue: venue, connection: connection, markets: stream.plan[connection], fault: fault, url: url)
                case .polling:
                    book.polling(venue: venue, connection: connection, interval: request.interval)
                    let markets = stream.plan[connection]
                    pollers[connection]?.cancel()
                    pollers[connection] = Task {
                        await poll(markets, venue: venue, request: request, book: book)
                    }
                }
            }
        }
        for poller in pollers.values { poller.cancel() }
    }

    /// Polls `markets` of `venue` over REST every `request.interval` until cancelled.
    private func poll(_ markets: [Market], venue: String, request: LiveQuoteRequest, book: LiveQuoteBook) async {
        let interval = Duration.milliseconds(Int64((request.interval * 1000).rounded()))
        while !Task.isCancelled {
            let started = clock.now
            let outcomes = await fetch(markets, venue: venue, request: request)
            if Task.isCancelled { return }
            book.polled(outcomes, venue: venue)
            guard (try? await clock.sleep(until: started + interval)) != nil else { return }
        }
    }

    /// One REST snapshot of `markets` of `venue` (`agg quote`'s fetch).
    private func fetch(_ markets: [Market], venue: String, request: LiveQuoteRequest) async -> [QuoteService.Outcome] {
        let plan = QuoteService.Plan(
            requests: [QuoteService.VenueRequest(venue: venue, markets: markets)], all: request.plan.all,
            quoteCurrency: request.plan.quoteCurrency)
        do throws(AggError) {
            return try await quotes.fetch(plan)
        } catch {
            return markets.map { QuoteService.Outcome(exchange: venue, market: $0, result: .failure(error)) }
        }
    }
}
